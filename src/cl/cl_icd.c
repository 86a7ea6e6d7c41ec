/* The entry points the ICD loader looks up by name (the only symbols the
 * library exports, see exports.map); everything else is reached through
 * the dispatch table of the platform handle. */
#include <string.h>

#include "cl_api.h"

CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms,
                                                       cl_uint *num_platforms);

cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms,
                                          cl_uint *num_platforms) {
  return clGetPlatformIDs(num_entries, platforms, num_platforms);
}

/* The loader finds clIcdGetPlatformIDsKHR through this; no other extension
 * function exists. */
void *CL_API_CALL clGetExtensionFunctionAddress(const char *func_name) {
  if (func_name && !strcmp(func_name, "clIcdGetPlatformIDsKHR")) return (void *)(uintptr_t)clIcdGetPlatformIDsKHR;
  return NULL;
}

void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char *func_name) {
  if (platform != cy_platform()) return NULL;
  return clGetExtensionFunctionAddress(func_name);
}

/* No compiler is loaded, so there is nothing to unload. */
cl_int CL_API_CALL clUnloadCompiler(void) { return CL_SUCCESS; }

cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
  return platform == cy_platform() ? CL_SUCCESS : CL_INVALID_PLATFORM;
}
