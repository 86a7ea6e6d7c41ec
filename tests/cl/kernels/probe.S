# probe.S — the argument probe of probe.inc without any metadata: the
# runtime classifies its arguments by their values (docs/opencl.md §5.1).
        .include "probe.inc"
        probe_kernel probe
