# Windows build of Logitscope: the PyInstaller folder, then the Inno Setup installer.
# NOT run in this repository's CI (Linux only); see packaging/README.md. Run from the repository root in
# a "x64 Native Tools" PowerShell with Python 3.11, CMake and Inno Setup 6 (iscc on PATH):
#   powershell -ExecutionPolicy Bypass -File packaging\windows\build.ps1
# For a CUDA or Vulkan build set $env:CMAKE_ARGS first (see packaging/README.md).
$ErrorActionPreference = "Stop"
if (-not (Test-Path .venv)) { py -3.11 -m venv .venv }
.\.venv\Scripts\python -m pip install -q --upgrade pip
.\.venv\Scripts\python -m pip install -q -e ".[package]"      # builds llama-cpp-python from source
.\.venv\Scripts\logitscope models fetch-demo
.\.venv\Scripts\pyinstaller --noconfirm packaging\logitscope.spec
.\dist\Logitscope\logitscope-cli.exe --selftest --screenshot dist\selftest-windows.png
if ($LASTEXITCODE -ne 0) { throw "the self-test of the frozen app failed" }
$version = .\.venv\Scripts\python -c "import logitscope; print(logitscope.__version__)"
iscc "/DAppVersion=$version" packaging\windows\logitscope.iss
