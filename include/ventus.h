/* The upstream Ventus driver API (THU-DSP-LAB/ventus-driver include/ventus.h),
 * C linkage, same names and argument lists, implemented on chengying's
 * functional simulator. All functions return 0 on success and -1 on error;
 * vt_last_error() gives the message of the last failure on a device.
 *
 * Differences from upstream: vt_finish_all_kernel takes an opaque pointer
 * where upstream has std::queue<int>*; vt_start runs the launch to
 * completion before it returns (like the spike back end), so vt_ready_wait
 * returns 0 at once. Task ids matter: vt_root_mem_alloc(dev, taskID) makes
 * an isolated context whose buffers (vt_buf_alloc for that task id) only
 * kernels started for that task may touch and only copies for that task
 * may reach; vt_root_mem_free frees them (docs/driver.md). */
#ifndef VENTUS_H
#define VENTUS_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void *vt_device_h;
typedef void *vt_buffer_h;

/* vt_dev_caps ids */
#define VT_CAPS_VERSION 0
#define VT_CAPS_MAX_CORES 1
#define VT_CAPS_MAX_WARPS 2
#define VT_CAPS_MAX_THREADS 3
#define VT_CAPS_CACHE_LINE_SIZE 4
#define VT_CAPS_LOCAL_MEM_SIZE 5
#define VT_CAPS_ALLOC_BASE_ADDR 6
#define VT_CAPS_KERNEL_BASE_ADDR 7
#define VT_CAPS_MAX_WG_SLOTS 8 /* later back ends; id chosen here */

#define MAX_TIMEOUT (60 * 60 * 1000)

/* buffer types (only meaningful in the legacy verilator back end) */
#define READ_WRITE 0
#define READ_ONLY 1
#define KERNEL_MEM 2

int vt_dev_open(vt_device_h *hdevice);
int vt_dev_close(vt_device_h hdevice);
int vt_dev_caps(vt_device_h *hdevice, uint64_t caps_id, uint64_t *value);
int vt_root_mem_alloc(vt_device_h hdevice, int taskID);
int vt_root_mem_free(vt_device_h hdevice, int taskID);
int vt_buf_alloc(vt_device_h hdevice, uint64_t size, uint64_t *vaddr, int BUF_TYPE, uint64_t taskID,
                 uint64_t kernelID);
int vt_buf_free(vt_device_h hdevice, uint64_t size, uint64_t *vaddr, uint64_t taskID, uint64_t kernelID);
int vt_one_buf_free(vt_device_h hdevice, uint64_t size, uint64_t *vaddr, uint64_t taskID,
                    uint64_t kernelID);
int vt_copy_to_dev(vt_device_h hdevice, uint64_t dev_vaddr, const void *src_addr, uint64_t size,
                   uint64_t taskID, uint64_t kernelID);
int vt_copy_from_dev(vt_device_h hdevice, uint64_t dev_vaddr, void *dst_addr, uint64_t size,
                     uint64_t taskID, uint64_t kernelID);
/* metaData: twelve uint64_t in the 2024 driver-metadata order: kernel_id,
 * kernel_size[3], wf_size, wg_size, metaDataBaseAddr, ldsSize, pdsSize,
 * sgprUsage, vgprUsage, pdsBaseAddr (runtime.md §2.3 b). */
int vt_start(vt_device_h hdevice, void *metaData, uint64_t taskID);
int vt_ready_wait(vt_device_h hdevice, uint64_t timeout);
int vt_finish_all_kernel(vt_device_h hdevice, void *finished_kernel_list);
int vt_upload_kernel_bytes(vt_device_h device, const void *content, uint64_t size, int taskID);
int vt_upload_kernel_file(vt_device_h device, const char *filename, int kernelID);
int vt_dump_perf(vt_device_h device, FILE *stream);

/* chengying extension: message of the last failed call on `hdevice`
 * ("" if none; a static string for a NULL handle). */
const char *vt_last_error(vt_device_h hdevice);

#ifdef __cplusplus
}
#endif

#endif
