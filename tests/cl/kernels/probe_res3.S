# probe_res3.S — the argument probe with a version-3 resource record
# (runtime.md §3.2): LDS static 300 bytes, PDS static 32 + stack peak 96.
        .include "probe.inc"
        probe_kernel probe_res3

        .section .ventus.resource.probe_res3, "", @progbits
        .balign 8
        .word   3, 0                    # version, flags
        .dword  8, 16                   # VGPRs, SGPRs used
        .dword  300, 32                 # LDS static bytes, PDS static bytes per work-item
        .dword  1024, 96                # LDS stack peak (per group), PDS stack peak (per work-item)
