# Sourced by run-tests.sh and run-example.sh: installs missing Debian packages.
#   vt_install_deps pkg...   installs those of the packages that are missing,
#                            running `apt-get update` first, and only when we
#                            are root or have password-less sudo.
vt_install_deps() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
      missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      sudo="sudo"
    else
      echo "missing packages: ${missing[*]} (not root and no sudo: install them yourself)" >&2
      return 1
    fi
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "missing packages: ${missing[*]} (no apt-get on this machine)" >&2
    return 1
  fi
  echo "installing: ${missing[*]}"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null &&
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "${missing[@]}" >/dev/null
}
