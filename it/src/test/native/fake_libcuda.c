/*
 * A fake libcuda.so.1 for parl's tests: the few driver API calls of the GPU identity check
 * (cuInit, cuDeviceGetCount, cuDeviceGet, cuDeviceGetUuid, cuDeviceGetUuid_v2), answering from
 * CUDA_VISIBLE_DEVICES and the fake nvidia-smi's files in the folder this library lies in
 * (org.parl.demo.FakeNvidiaSmi): "gpus" (INDEX UUID ...) and "mig" (PARENT DEVICE PROFILE UUID).
 * A file "libcuda-swap" there makes it lie: with a UUID on its first line, device 0 reports that
 * UUID; empty, each device reports the UUID of the next GPU of "gpus".
 *
 * Like the real driver: CUDA_VISIBLE_DEVICES unset shows every GPU; its entries are indices,
 * GPU- UUIDs or MIG- UUIDs, and the first entry that names no device ends the list; no device
 * makes cuInit fail with CUDA_ERROR_NO_DEVICE; cuDeviceGetUuid gives a MIG instance's parent GPU,
 * cuDeviceGetUuid_v2 the instance itself.
 *
 * Built by the it module's build (pom.xml) into target/fake-cuda/libcuda.so.1.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dlfcn.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CUDA_SUCCESS 0
#define CUDA_ERROR_INVALID_VALUE 1
#define CUDA_ERROR_NOT_INITIALIZED 3
#define CUDA_ERROR_NO_DEVICE 100
#define CUDA_ERROR_INVALID_DEVICE 101
#define CUDA_ERROR_FILE_NOT_FOUND 301

#define MAX_UNITS 64
#define UUID_LEN 128

struct unit {
  int index;              /* a GPU's index, or -1 for a MIG instance */
  char uuid[UUID_LEN];
  char parent[UUID_LEN];  /* a MIG instance's GPU, else the GPU's own UUID */
};

static struct unit units[MAX_UNITS];  /* GPUs, then MIG instances */
static int unit_count;
static int gpu_count;
static int visible[MAX_UNITS];        /* CUDA's devices, as positions in units */
static int visible_count;
static int initialized;
static char swap_uuid[UUID_LEN];
static int swapping;                  /* 0: no, 1: device 0 reports swap_uuid, 2: each reports the next GPU */

static void folder(char *out, size_t size) {
  Dl_info info;
  out[0] = '\0';
  if (dladdr((void *) &folder, &info) && info.dli_fname) {
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", info.dli_fname);
    snprintf(out, size, "%s", dirname(copy));
  }
}

static void load(const char *dir) {
  char path[4200], line[1024];
  unit_count = gpu_count = 0;
  snprintf(path, sizeof path, "%s/gpus", dir);
  FILE *f = fopen(path, "r");
  while (f && fgets(line, sizeof line, f) && unit_count < MAX_UNITS) {
    struct unit *u = &units[unit_count];
    if (sscanf(line, "%d %127s", &u->index, u->uuid) == 2) {
      memcpy(u->parent, u->uuid, UUID_LEN);
      unit_count++;
      gpu_count++;
    }
  }
  if (f) fclose(f);
  snprintf(path, sizeof path, "%s/mig", dir);
  f = fopen(path, "r");
  while (f && fgets(line, sizeof line, f) && unit_count < MAX_UNITS) {
    int parent, device;
    char profile[64];
    struct unit *u = &units[unit_count];
    if (sscanf(line, "%d %d %63s %127s", &parent, &device, profile, u->uuid) == 4) {
      u->index = -1;
      u->parent[0] = '\0';
      for (int i = 0; i < gpu_count; i++) {
        if (units[i].index == parent) memcpy(u->parent, units[i].uuid, UUID_LEN);
      }
      unit_count++;
    }
  }
  if (f) fclose(f);
  snprintf(path, sizeof path, "%s/libcuda-swap", dir);
  f = fopen(path, "r");
  swapping = 0;
  if (f) {
    swapping = 2;
    if (fgets(line, sizeof line, f) && sscanf(line, "%127s", swap_uuid) == 1) swapping = 1;
    fclose(f);
  }
}

/* The unit an entry of CUDA_VISIBLE_DEVICES names, or -1. */
static int named(const char *entry) {
  if (*entry && strspn(entry, "0123456789") == strlen(entry)) {
    for (int i = 0; i < gpu_count; i++) {
      if (units[i].index == atoi(entry)) return i;
    }
    return -1;
  }
  for (int i = 0; i < unit_count; i++) {
    if (strcmp(units[i].uuid, entry) == 0) return i;
  }
  return -1;
}

static void enumerate(void) {
  const char *env = getenv("CUDA_VISIBLE_DEVICES");
  visible_count = 0;
  if (env == NULL) {
    for (int i = 0; i < gpu_count; i++) visible[visible_count++] = i;
    return;
  }
  char copy[4096];
  snprintf(copy, sizeof copy, "%s", env);
  for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok && visible_count < MAX_UNITS; tok = strtok_r(NULL, ",", &save)) {
    while (isspace((unsigned char) *tok)) tok++;
    char *end = tok + strlen(tok);
    while (end > tok && isspace((unsigned char) end[-1])) *--end = '\0';
    int u = named(tok);
    if (u < 0) break;
    visible[visible_count++] = u;
  }
}

int cuInit(unsigned int flags) {
  char dir[4096];
  if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
  folder(dir, sizeof dir);
  load(dir);
  if (gpu_count == 0) return CUDA_ERROR_FILE_NOT_FOUND;
  enumerate();
  initialized = 1;
  return visible_count == 0 ? CUDA_ERROR_NO_DEVICE : CUDA_SUCCESS;
}

int cuDeviceGetCount(int *count) {
  if (!initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!count) return CUDA_ERROR_INVALID_VALUE;
  *count = visible_count;
  return CUDA_SUCCESS;
}

int cuDeviceGet(int *device, int ordinal) {
  if (!initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!device) return CUDA_ERROR_INVALID_VALUE;
  if (ordinal < 0 || ordinal >= visible_count) return CUDA_ERROR_INVALID_DEVICE;
  *device = ordinal;
  return CUDA_SUCCESS;
}

/* The 16 bytes of a GPU-/MIG- UUID's hex digits (a fake's UUIDs are always of this form). */
static int bytes(const char *uuid, unsigned char *out) {
  const char *p = strchr(uuid, '-');
  int n = 0;
  for (p = p ? p + 1 : uuid; *p && n < 32; p++) {
    if (*p == '-') continue;
    if (!isxdigit((unsigned char) *p)) return CUDA_ERROR_INVALID_VALUE;
    int v = isdigit((unsigned char) *p) ? *p - '0' : tolower((unsigned char) *p) - 'a' + 10;
    if (n % 2 == 0) out[n / 2] = (unsigned char) (v << 4); else out[n / 2] |= (unsigned char) v;
    n++;
  }
  return n == 32 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

static int uuid_of(unsigned char *out, int device, int v2) {
  if (!initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  if (device < 0 || device >= visible_count) return CUDA_ERROR_INVALID_DEVICE;
  struct unit *u = &units[visible[device]];
  const char *uuid = v2 ? u->uuid : u->parent;
  if (swapping == 1 && device == 0) {
    uuid = swap_uuid;
  } else if (swapping == 2) {
    uuid = units[(visible[device] + 1) % gpu_count].uuid;
  }
  return bytes(uuid, out);
}

int cuDeviceGetUuid(unsigned char *uuid, int device) {
  return uuid_of(uuid, device, 0);
}

int cuDeviceGetUuid_v2(unsigned char *uuid, int device) {
  return uuid_of(uuid, device, 1);
}
