# an empty .ascii as the first data of a section (UBSan: zero offset to a NULL pointer)
.section .d
.ascii ""
