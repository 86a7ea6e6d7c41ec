#!/usr/bin/env bash
# clinfo, through Debian's ICD loader and the .icd file of the build tree,
# lists the chengying platform and device with the values of the device
# configuration (`ventus config`), follows CHENGYING_CONFIG, and a bad
# configuration file leaves the platform without a device and one message.
#   usage: bash test_cl_clinfo.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@"
build=$(dirname "$ventus_bin")
command -v clinfo >/dev/null 2>&1 || { echo "SKIP: clinfo not installed"; exit 0; }
[ -e "$build/icd/chengying.icd" ] || { echo "SKIP: OpenCL headers absent, no ICD library built"; exit 0; }
export OCL_ICD_VENDORS="$build/icd"
# a sanitizer build of the library is loaded into clinfo, which is not one
export ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0

# field VALUE-OF-LINE: the value clinfo prints after the label
field() { sed -n "s/^ *$1  *//p" "$2" | head -n 1; }

cfg() { "$ventus" config | sed -n "s/^$1 = //p"; }
sm=$(cfg num_sm)
wg=$(($(cfg warps_per_sm) * $(cfg max_threads)))
lds=$(($(cfg lds_bytes_per_sm) - $(cfg warps_per_sm) * 1024))

if ! timeout 30 clinfo >"$tmp/out" 2>"$tmp/err"; then
  bad "clinfo failed"
  cat "$tmp/err"
  exit 1
fi
check() { # check LABEL EXPECTED
  local got
  got=$(field "$1" "$tmp/out")
  [ "$got" = "$2" ] && ok "$1: $got" || bad "$1: got '$got', expected '$2'"
}
check "Platform Name" chengying
# the full profile with the compiler; a build without it is an embedded device
profile=EMBEDDED_PROFILE
[ "$(field "Compiler Available" "$tmp/out")" = Yes ] && profile=FULL_PROFILE
check "Platform Profile" "$profile"
check "Device Profile" "$profile"
check "Platform Version" "OpenCL 1.2 chengying 0.1"
check "Platform Extensions function suffix" CY
check "Device Name" "Ventus GPGPU (chengying simulator)"
check "Device Version" "OpenCL 1.2 chengying 0.1"
check "Device Type" GPU
# the compiler is there when the build found LLVM 19 (`ventus cc` says which)
if "$ventus_bin" cc /dev/null 2>&1 | grep -q "no OpenCL C compiler"; then
  check "Compiler Available" No
else
  check "Compiler Available" Yes
fi
check "Max compute units" "$sm"
check "Max work group size" "$wg"
check "Max work item sizes" "${wg}x${wg}x${wg}"
check "Address bits" "32, Little-Endian"
check "Image support" Yes
case "$(field "Local memory size" "$tmp/out")" in
"$lds "*) ok "Local memory size: $lds bytes" ;;
*) bad "Local memory size: got '$(field "Local memory size" "$tmp/out")', expected $lds" ;;
esac

# the configuration file of CHENGYING_CONFIG is the device's
printf 'num_sm = 4\nwarps_per_sm = 4\nmax_threads = 16\n' >"$tmp/dev.cfg"
CHENGYING_CONFIG="$tmp/dev.cfg" timeout 30 clinfo >"$tmp/out" 2>&1
check "Max compute units" 4
check "Max work group size" 64

# a bad one: no device, one line naming the file and the key
printf 'num_sm = banana\n' >"$tmp/bad.cfg"
CHENGYING_CONFIG="$tmp/bad.cfg" timeout 30 clinfo >"$tmp/out" 2>"$tmp/err"
n=$(grep -c 'chengying-opencl: CHENGYING_CONFIG: .*bad.cfg:1: .*num_sm' "$tmp/err")
[ "$n" = 1 ] && ok "bad configuration: $(cat "$tmp/err")" || { bad "bad configuration message"; cat "$tmp/err"; }
[ "$(field "Number of devices" "$tmp/out")" = 0 ] && ok "bad configuration: no device" ||
  bad "bad configuration: devices listed"
exit $fail
