#!/usr/bin/env bash
# Runs a command (swift) with only the environment variables a build reads: SwiftPM keys its
# cache of compiled package manifests on the whole environment, so a new terminal or tmux pane
# (TMUX_PANE, WINDOWID), make's MAKEFLAGS or a shell's OLDPWD would otherwise have every manifest
# of the graph compiled again: 20 s and more on a busy 2-core machine. Usage: swift-env.sh CMD...
set -euo pipefail
keep=()
for name in $(compgen -e); do
  case $name in
    PATH | HOME | USER | LOGNAME | SHELL | TMPDIR | TERM | LANG | LANGUAGE | LC_* | \
      XDG_CACHE_HOME | XDG_CONFIG_HOME | XDG_DATA_HOME | SWIFT* | GIT_* | SSH_AUTH_SOCK | \
      http_proxy | https_proxy | no_proxy | all_proxy | HTTP_PROXY | HTTPS_PROXY | NO_PROXY | \
      ALL_PROXY | CC | CXX | SDKROOT | DEVELOPER_DIR) keep+=("$name=${!name}") ;;
  esac
done
exec env -i "${keep[@]}" "$@"
