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
  vt_apt $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
    vt_apt $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "${missing[@]}"
}

# vt_apt COMMAND...: runs an apt-get command quietly; while it fails because
# another program (unattended-upgrades, another apt-get) holds the package
# manager's lock, waits and tries again, at most VT_APT_LOCK_WAIT seconds
# in all (default 600; tries every VT_APT_LOCK_STEP seconds, default 5),
# saying so once; then gives up with a clear message.
vt_apt() {
  local limit=${VT_APT_LOCK_WAIT:-600} step=${VT_APT_LOCK_STEP:-5} waited=0 err rc
  err=$(mktemp) || return 1
  while :; do
    "$@" >/dev/null 2>"$err"
    rc=$?
    [ $rc -eq 0 ] && break
    grep -qiE 'could not get lock|unable to acquire the dpkg frontend lock|unable to lock' "$err" || break
    if [ "$waited" -ge "$limit" ]; then
      echo "the package manager's lock is still held after ${limit} s (another apt-get or" \
        "unattended-upgrades is running): try again later, or set VT_APT_LOCK_WAIT=SECONDS" >&2
      break
    fi
    [ "$waited" -eq 0 ] &&
      echo "another program holds the package manager's lock: waiting for it (at most ${limit} s)" >&2
    sleep "$step"
    waited=$((waited + step))
  done
  [ $rc -ne 0 ] && cat "$err" >&2
  rm -f "$err"
  return $rc
}
