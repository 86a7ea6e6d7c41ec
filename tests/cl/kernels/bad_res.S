# bad_res.S — a resource section of 6 bytes, neither form of runtime.md
# §3.2: clBuildProgram must fail and say why.
        .text
        .globl  bad_res
bad_res:
        ret

        .section .ventus.resource.bad_res, "", @progbits
        .half   8, 16, 200
