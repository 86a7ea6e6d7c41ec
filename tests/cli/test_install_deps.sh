#!/usr/bin/env bash
# .ci/install-deps.sh: an apt-get that fails because another program holds
# the package manager's lock is tried again, with one message, for a bounded
# time; other failures and a lock held too long end with apt-get's own
# message (a stand-in apt-get here: nothing is installed).
#   usage: bash test_install_deps.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail, ok, bad
. "$src/.ci/install-deps.sh"

# fake N: fails like a locked apt-get N times (counted in $tmp/count), then succeeds
cat >"$tmp/fake" <<'SH'
#!/bin/sh
n=$(cat "$1" 2>/dev/null || echo 0)
echo $((n + 1)) >"$1"
if [ "$n" -lt "$2" ]; then
  echo "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (apt-get)" >&2
  exit 100
fi
SH
chmod +x "$tmp/fake"

VT_APT_LOCK_STEP=1 VT_APT_LOCK_WAIT=30 vt_apt "$tmp/fake" "$tmp/count" 2 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ "$(cat "$tmp/count")" = 3 ] &&
  grep -q "another program holds the package manager's lock: waiting for it (at most 30 s)" "$tmp/err" &&
  [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
  ok "a lock held for a while: waited once, then installed"
else
  bad "a lock held for a while: rc=$rc count=$(cat "$tmp/count") $(cat "$tmp/err")"
fi

rm -f "$tmp/count"
VT_APT_LOCK_STEP=1 VT_APT_LOCK_WAIT=2 vt_apt "$tmp/fake" "$tmp/count" 1000 2>"$tmp/err"
rc=$?
if [ $rc -eq 100 ] && grep -q "the package manager's lock is still held after 2 s" "$tmp/err" &&
  grep -q "E: Could not get lock" "$tmp/err"; then
  ok "a lock held too long: a bounded wait, then apt-get's message"
else
  bad "a lock held too long: rc=$rc $(cat "$tmp/err")"
fi

printf '#!/bin/sh\necho "E: Unable to locate package nosuch" >&2\nexit 100\n' >"$tmp/nopkg"
chmod +x "$tmp/nopkg"
VT_APT_LOCK_STEP=1 VT_APT_LOCK_WAIT=30 vt_apt "$tmp/nopkg" 2>"$tmp/err"
rc=$?
if [ $rc -eq 100 ] && [ "$(cat "$tmp/err")" = "E: Unable to locate package nosuch" ]; then
  ok "another failure: no waiting, apt-get's message"
else
  bad "another failure: rc=$rc $(cat "$tmp/err")"
fi
exit $fail
