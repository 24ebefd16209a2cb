#!/bin/sh
# Starts Logitscope from wherever this folder was unpacked; arguments go to the app
# (no arguments: the window; `--selftest`: check this installation; `--help`: the command line).
here=$(dirname "$(readlink -f "$0")")
exec "$here/app/Logitscope" "$@"
