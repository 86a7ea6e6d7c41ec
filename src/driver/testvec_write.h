/* Launches written out as upstream test vectors (`.metadata` + `.data` per
 * launch, `kernels.txt` in launch order): the inverse of testvec.c, so that
 * any launch the project runs can be run again by `ventus run DIR` or by the
 * Verilog RTL's testbench. Layout and rules: docs/simulator.md, "Exporting
 * a launch as a test vector".
 *
 * Every launch is one `.metadata`/`.data` pair holding the whole grid (as
 * the upstream multi-work-group vectors do); its buffers are the device's
 * mapped regions in address order. The first launch of a directory
 * describes all of them; a later one only the regions that are new and the
 * words that changed since the previous launch ended (host writes between
 * launches), since memory persists along a sequence. */
#ifndef VT_TESTVEC_WRITE_H
#define VT_TESTVEC_WRITE_H

#include "device.h"
#include "vt_error.h"

typedef struct vt_tvexport vt_tvexport;

/* Creates DIR when it does not exist and starts its kernels.txt afresh
 * (other files in it are left alone). NULL with the error in *e. */
vt_tvexport *vt_tvexport_open(const char *dir, vt_error *e);
/* Writes launch `l`, whose memory must be in place (call it just before
 * vt_device_launch), as DIR/STEM.metadata and DIR/STEM.data and rewrites
 * kernels.txt. STEM is `name` itself (numbered = 0; '/' becomes '_') or
 * `name_<n>` with n counting the launches of that name from 0, as pocl
 * names them (numbered = 1). */
int vt_tvexport_launch(vt_tvexport *x, vt_device *d, const vt_launch *l, const char *name, int numbered,
                       vt_error *e);
/* Call it after the launch (also a failed one): the memory as it now stands
 * is what the next launch's files are written against. */
int vt_tvexport_done(vt_tvexport *x, vt_device *d, vt_error *e);
void vt_tvexport_close(vt_tvexport *x);

/* The register counts written when the launch does not know them: pocl's
 * fixed sgprUsage/vgprUsage (the RTL sizes its register allocation by them). */
#define VT_TVEXPORT_DEFAULT_GPRS 64u

#endif
