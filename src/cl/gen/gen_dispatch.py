#!/usr/bin/env python3
"""Generates src/cl/cl_dispatch.c from the installed <CL/cl_icd.h>.

Run by hand when the OpenCL headers change:
    python3 src/cl/gen/gen_dispatch.py /usr/include/CL/cl_icd.h > src/cl/cl_dispatch.c

It emits (1) the dispatch table, every member initialised with the function
of the same name, so the layout always comes from the header and no slot is
NULL, and (2) for the entries chengying does not support, definitions that
return the OpenCL error the specification prescribes for that case. Slots
that are bare `void *` on this platform (Direct3D/DX9 sharing, Windows only)
get a function that returns CL_INVALID_OPERATION."""
import re
import sys

# entry -> error returned (objects: through errcode_ret, and NULL)
UNSUPPORTED = {
    # image commands not done yet, and the 2.0/3.0 forms with properties
    "clCreateImageWithProperties": "CL_INVALID_OPERATION",
    "clCreateSamplerWithProperties": "CL_INVALID_OPERATION",
    "clEnqueueCopyImage": "CL_INVALID_MEM_OBJECT",
    "clEnqueueCopyImageToBuffer": "CL_INVALID_MEM_OBJECT",
    "clEnqueueCopyBufferToImage": "CL_INVALID_MEM_OBJECT",
    "clEnqueueMapImage": "CL_INVALID_MEM_OBJECT",
    "clEnqueueFillImage": "CL_INVALID_MEM_OBJECT",
    # no native kernels (CL_EXEC_NATIVE_KERNEL not in the capabilities)
    "clEnqueueNativeKernel": "CL_INVALID_OPERATION",
    # one device, not partitionable
    "clCreateSubDevicesEXT": "CL_INVALID_OPERATION",
    "clRetainDeviceEXT": "CL_INVALID_OPERATION",
    "clReleaseDeviceEXT": "CL_INVALID_OPERATION",
    # no built-in kernels
    "clCreateProgramWithBuiltInKernels": "CL_INVALID_VALUE",
    # deprecated 1.0 entry
    "clSetCommandQueueProperty": "CL_INVALID_OPERATION",
    # OpenCL 2.x/3.0 features of a 1.2 device
    "clCreatePipe": "CL_INVALID_OPERATION",
    "clGetPipeInfo": "CL_INVALID_MEM_OBJECT",
    "clSVMAlloc": None,
    "clSVMFree": None,
    "clEnqueueSVMFree": "CL_INVALID_OPERATION",
    "clEnqueueSVMMemcpy": "CL_INVALID_OPERATION",
    "clEnqueueSVMMemFill": "CL_INVALID_OPERATION",
    "clEnqueueSVMMap": "CL_INVALID_OPERATION",
    "clEnqueueSVMUnmap": "CL_INVALID_OPERATION",
    "clEnqueueSVMMigrateMem": "CL_INVALID_OPERATION",
    "clSetKernelArgSVMPointer": "CL_INVALID_OPERATION",
    "clSetKernelExecInfo": "CL_INVALID_OPERATION",
    "clGetKernelSubGroupInfoKHR": "CL_INVALID_OPERATION",
    "clGetKernelSubGroupInfo": "CL_INVALID_OPERATION",
    "clCloneKernel": "CL_INVALID_OPERATION",
    "clCreateProgramWithIL": "CL_INVALID_OPERATION",
    "clGetDeviceAndHostTimer": "CL_INVALID_OPERATION",
    "clGetHostTimer": "CL_INVALID_OPERATION",
    "clSetDefaultDeviceCommandQueue": "CL_INVALID_OPERATION",
    "clSetProgramReleaseCallback": "CL_INVALID_OPERATION",
    "clSetProgramSpecializationConstant": "CL_INVALID_OPERATION",
    "clCreateBufferWithProperties": "CL_INVALID_OPERATION",
    "clSetContextDestructorCallback": "CL_INVALID_OPERATION",
    # OpenGL / EGL sharing: no such context can be created
    "clCreateFromGLBuffer": "CL_INVALID_CONTEXT",
    "clCreateFromGLTexture": "CL_INVALID_CONTEXT",
    "clCreateFromGLTexture2D": "CL_INVALID_CONTEXT",
    "clCreateFromGLTexture3D": "CL_INVALID_CONTEXT",
    "clCreateFromGLRenderbuffer": "CL_INVALID_CONTEXT",
    "clGetGLObjectInfo": "CL_INVALID_GL_OBJECT",
    "clGetGLTextureInfo": "CL_INVALID_GL_OBJECT",
    "clEnqueueAcquireGLObjects": "CL_INVALID_CONTEXT",
    "clEnqueueReleaseGLObjects": "CL_INVALID_CONTEXT",
    "clGetGLContextInfoKHR": "CL_INVALID_OPERATION",
    "clCreateEventFromGLsyncKHR": "CL_INVALID_CONTEXT",
    "clCreateFromEGLImageKHR": "CL_INVALID_CONTEXT",
    "clEnqueueAcquireEGLObjectsKHR": "CL_INVALID_CONTEXT",
    "clEnqueueReleaseEGLObjectsKHR": "CL_INVALID_CONTEXT",
    "clCreateEventFromEGLSyncKHR": "CL_INVALID_CONTEXT",
}


def main():
    text = open(sys.argv[1]).read()
    # the typedefs outside `#if defined(_WIN32)` blocks
    typedefs = {}
    skip = 0
    lines = text.split("\n")
    buf = ""
    for line in lines:
        if line.startswith("#if defined(_WIN32)"):
            skip = 1
        elif skip and line.startswith("#else"):
            skip = 0
        elif skip and line.startswith("#endif"):
            skip = 0
        if skip:
            continue
        buf += line + "\n"
    for m in re.finditer(r"typedef\s+([\w\s\*]+?)\s*\(\s*CL_API_CALL\s*\*\s*cl_api_(\w+)\)\s*\((.*?)\)\s*(CL_API_SUFFIX\w*|CL_EXT_SUFFIX\w*)?\s*;",
                         buf, re.S):
        params = " ".join(m.group(3).split())
        # some typedefs keep the names in comments; cl.h declares arrays as pointers
        params = re.sub(r"/\*\s*(\w+)\s*\*/", r"\1", params)
        params = re.sub(r"(\w+)\[3\]", r"*\1", params)
        typedefs[m.group(2)] = (m.group(1).strip(), params)
    body = re.search(r"typedef struct _cl_icd_dispatch \{(.*?)\} cl_icd_dispatch;", text, re.S).group(1)
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    members = re.findall(r"cl_api_(\w+)\s+(\w+);", body)
    out = []
    out.append("/* Generated by src/cl/gen/gen_dispatch.py from <CL/cl_icd.h>: do not edit. */")
    out.append('#include "cl_api.h"')
    out.append("")
    out.append("#include <stdint.h>")
    out.append("")
    out.append("/* unsupported entries: the parameters are not looked at */")
    out.append('#pragma GCC diagnostic ignored "-Wunused-parameter"')
    out.append("")
    win32 = []
    for typ, name in members:
        if name not in typedefs:
            win32.append(name)
            continue
        if name not in UNSUPPORTED:
            continue
        ret, params = typedefs[name]
        err = UNSUPPORTED[name]
        out.append(f"{ret} CL_API_CALL {name}({params}) {{")
        if ret == "cl_int":
            out.append(f"  return {err};")
        elif ret == "void":
            pass
        elif ret == "void *":
            out.append("  return NULL;")
        else:
            if "errcode_ret" in params:
                out.append(f"  if (errcode_ret) *errcode_ret = {err};")
            out.append("  return NULL;")
        out.append("}")
        out.append("")
    out.append("/* a slot that is a bare pointer on this platform (Windows-only sharing APIs) */")
    out.append("static cl_int CL_API_CALL cy_cl_windows_only(void) { return CL_INVALID_OPERATION; }")
    out.append("")
    out.append("const cl_icd_dispatch cy_cl_dispatch = {")
    for typ, name in members:
        if name in win32:
            out.append(f"    .{name} = (void *)(uintptr_t)cy_cl_windows_only,")
        else:
            out.append(f"    .{name} = {name},")
    out.append("};")
    missing = [n for n in UNSUPPORTED if n not in typedefs]
    if missing:
        sys.exit("unknown entries: " + " ".join(missing))
    print("\n".join(out))


main()
