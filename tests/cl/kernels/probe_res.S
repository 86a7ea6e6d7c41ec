# probe_res.S — the argument probe with a resource section in the 8-byte
# form (runtime.md §3.2): 200 bytes of static local data, 64 bytes of
# private memory per work-item.
        .include "probe.inc"
        probe_kernel probe_res

        .section .ventus.resource.probe_res, "", @progbits
        .half   8, 16, 200, 64          # VGPRs, SGPRs, LDS bytes, PDS bytes
