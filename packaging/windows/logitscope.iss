; Inno Setup 6 script: a per-user or all-users installer for the PyInstaller folder dist\Logitscope.
; NOT built or tested in this repository's CI (Linux only) - see packaging/README.md.
;
;   pyinstaller --noconfirm packaging\logitscope.spec          (from the repository root, in the venv)
;   iscc /DAppVersion=0.1.0 packaging\windows\logitscope.iss   (writes dist\Logitscope-0.1.0-windows-x64-setup.exe)
;
; packaging\windows\build.ps1 does both.

#ifndef AppVersion
  #define AppVersion "0.0.0"
#endif
#define AppName "Logitscope"
#define AppExe "Logitscope.exe"
#define Dist "..\..\dist"

[Setup]
AppId={{6E1B6A7C-3F0D-4C52-9F3A-1D5C2B8E4A71}
AppName={#AppName}
AppVersion={#AppVersion}
AppPublisher=Logitscope developers
AppComments=Chat with a local LLM and see inside it
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
; Users without admin rights install for themselves; admins may choose all users.
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
OutputDir={#Dist}
OutputBaseFilename={#AppName}-{#AppVersion}-windows-x64-setup
; ~300 MB of mostly incompressible model weights and DLLs: lzma2 at a moderate level is enough.
Compression=lzma2/normal
SolidCompression=yes
WizardStyle=modern
UninstallDisplayIcon={app}\{#AppExe}
CloseApplications=yes

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
; The whole one-folder app: Logitscope.exe (the window), logitscope-cli.exe (the command line and
; `--selftest`, with a console), _internal\ (Python, Qt, llama.cpp DLLs, the demo model) and resources\.
Source: "{#Dist}\{#AppName}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\{#AppExe}"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExe}"; Tasks: desktopicon

[Run]
Filename: "{app}\{#AppExe}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent

[UninstallDelete]
; Nothing is written under {app} at run time; user data lives in %LOCALAPPDATA%\logitscope and is kept.
Type: dirifempty; Name: "{app}"
