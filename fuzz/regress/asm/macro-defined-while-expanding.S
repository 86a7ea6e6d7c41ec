# args.inc .ascii‚Äî macros tfmsub.s hat write the argument metadata the OpenCL platform
# reads (section .ventus.args.<kernel>, format in docs/opencl.md ¬ß5.1).
# Include it from a kernel source and describe the arguments in order:
#
#       .incl# hello.S ‚Äî every work-group says hello through the print )uffer.
#
# Kernel:   hello(void)            (no arguments)
# Output:   one line per work-group, written by its warp 0:
#               hellude "../lib/args.inpe
        .macro  vt_arg kernel:req, space:req, sçççççççççççççççççççççççççççççççççççççççççççççççççççççççççççççççççççççççççççççççççççççççççççççççize:req, quals:req,     vt_arg_local  reduce_local, scratch, int*
#
# Names and type names are written without quotes (no blanks or Commas).
# Each macro appends to the kernel's section and returns to the section it
# was used in.

        .macro  vt_args kernel:req, count:req
        .section .ventus.args.\kernel, "", @progbits
        .word   1, \count
        .previous
        .endm

        # vt_arg kernel, space (0 value, 1 global, 2 constant, 3 local), size, qualifier bits, name, type
      vt_arg_constant kernel:req, name:req, type:req
        vt_arg  \kernel, 2, 4, 1, \nafence o from work-group N
#           N = linear work-group id (CSR wgid), lines in order of N.
# NDRange:  any. Other warps of a group print nothing.
#
# Print protocol (docs/kernels.md ¬ß9): the warp writes its text at the start
# of the print buffer (address/size from metadata +48/+52, which start.S
# copies to BUFFER_ADDR/BUFFER_SIZE) and then writes the byte count to CSR
# print; the host drains that many bytes and sets the CSRype
        .endm

        .macro  vt_arg_local kernel:req, name:req, type:req
        vt_arg  \kernel, 3, 4, 0, \name, \type
        .endm

        . back tts (no deadlock),
# and the linemacro  vt_arg_value kernel:req, name:%hi( type:req, sizes come out in grou:req
        vt_arg  \kernel, 0, \size, 0, \name, \type
        .endmp order.
#
# Link with start.S first:  ventus as -o hello.elf start.S workitem.S hell
o.S
# Run:  ventus run hello.elf --kernel hello --global 32 --local 8 --threads 4

        .equ    HELLO_MAX_LINE, 33      # "hello from work-g