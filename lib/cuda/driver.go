//go:build cuda

package cuda

/*
#cgo CFLAGS: -I/usr/local/cuda/include
#cgo LDFLAGS: -ldl
#include <cuda.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>

// The driver API is reached through function pointers resolved with dlopen,
// so that a cuda build neither links libcuda nor fails to start without it.
// The symbol names are the ABI versions that cuda.h's macros select (the
// _v2 suffixes).
static void *oe_lib;
static CUresult (*p_cuInit)(unsigned int);
static CUresult (*p_cuDriverGetVersion)(int *);
static CUresult (*p_cuDeviceGetCount)(int *);
static CUresult (*p_cuDeviceGet)(CUdevice *, int);
static CUresult (*p_cuDeviceGetName)(char *, int, CUdevice);
static CUresult (*p_cuDeviceTotalMem)(size_t *, CUdevice);
static CUresult (*p_cuDeviceGetAttribute)(int *, CUdevice_attribute, CUdevice);
static CUresult (*p_cuCtxCreate)(CUcontext *, unsigned int, CUdevice);
static CUresult (*p_cuCtxDestroy)(CUcontext);
static CUresult (*p_cuCtxSetCurrent)(CUcontext);
static CUresult (*p_cuCtxSynchronize)(void);
static CUresult (*p_cuMemAlloc)(CUdeviceptr *, size_t);
static CUresult (*p_cuMemFree)(CUdeviceptr);
static CUresult (*p_cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
static CUresult (*p_cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
static CUresult (*p_cuMemsetD8)(CUdeviceptr, unsigned char, size_t);
static CUresult (*p_cuMemGetInfo)(size_t *, size_t *);
static CUresult (*p_cuModuleLoadData)(CUmodule *, const void *);
static CUresult (*p_cuModuleUnload)(CUmodule);
static CUresult (*p_cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
static CUresult (*p_cuLaunchKernel)(CUfunction, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int,
                                    unsigned int, unsigned int, CUstream, void **, void **);
static CUresult (*p_cuEventCreate)(CUevent *, unsigned int);
static CUresult (*p_cuEventDestroy)(CUevent);
static CUresult (*p_cuEventRecord)(CUevent, CUstream);
static CUresult (*p_cuEventSynchronize)(CUevent);
static CUresult (*p_cuEventElapsedTime)(float *, CUevent, CUevent);
static CUresult (*p_cuGetErrorName)(CUresult, const char **);
static CUresult (*p_cuGetErrorString)(CUresult, const char **);

#define OE_SYM(var, name) if (!(*(void **)(&var) = dlsym(oe_lib, name))) return name;

// oe_load opens the driver library and resolves every symbol. It returns
// NULL on success, else the library or symbol that is missing.
static const char *oe_load(void) {
	oe_lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!oe_lib) oe_lib = dlopen("libcuda.so", RTLD_NOW | RTLD_LOCAL);
	if (!oe_lib) return "libcuda.so.1";
	OE_SYM(p_cuInit, "cuInit")
	OE_SYM(p_cuDriverGetVersion, "cuDriverGetVersion")
	OE_SYM(p_cuDeviceGetCount, "cuDeviceGetCount")
	OE_SYM(p_cuDeviceGet, "cuDeviceGet")
	OE_SYM(p_cuDeviceGetName, "cuDeviceGetName")
	OE_SYM(p_cuDeviceTotalMem, "cuDeviceTotalMem_v2")
	OE_SYM(p_cuDeviceGetAttribute, "cuDeviceGetAttribute")
	OE_SYM(p_cuCtxCreate, "cuCtxCreate_v2")
	OE_SYM(p_cuCtxDestroy, "cuCtxDestroy_v2")
	OE_SYM(p_cuCtxSetCurrent, "cuCtxSetCurrent")
	OE_SYM(p_cuCtxSynchronize, "cuCtxSynchronize")
	OE_SYM(p_cuMemAlloc, "cuMemAlloc_v2")
	OE_SYM(p_cuMemFree, "cuMemFree_v2")
	OE_SYM(p_cuMemcpyHtoD, "cuMemcpyHtoD_v2")
	OE_SYM(p_cuMemcpyDtoH, "cuMemcpyDtoH_v2")
	OE_SYM(p_cuMemsetD8, "cuMemsetD8_v2")
	OE_SYM(p_cuMemGetInfo, "cuMemGetInfo_v2")
	OE_SYM(p_cuModuleLoadData, "cuModuleLoadData")
	OE_SYM(p_cuModuleUnload, "cuModuleUnload")
	OE_SYM(p_cuModuleGetFunction, "cuModuleGetFunction")
	OE_SYM(p_cuLaunchKernel, "cuLaunchKernel")
	OE_SYM(p_cuEventCreate, "cuEventCreate")
	OE_SYM(p_cuEventDestroy, "cuEventDestroy_v2")
	OE_SYM(p_cuEventRecord, "cuEventRecord")
	OE_SYM(p_cuEventSynchronize, "cuEventSynchronize")
	OE_SYM(p_cuEventElapsedTime, "cuEventElapsedTime")
	OE_SYM(p_cuGetErrorName, "cuGetErrorName")
	OE_SYM(p_cuGetErrorString, "cuGetErrorString")
	return NULL;
}

static CUresult oe_cuInit(void) { return p_cuInit(0); }
static CUresult oe_cuDriverGetVersion(int *v) { return p_cuDriverGetVersion(v); }
static CUresult oe_cuDeviceGetCount(int *n) { return p_cuDeviceGetCount(n); }
static CUresult oe_cuDeviceGet(CUdevice *d, int ordinal) { return p_cuDeviceGet(d, ordinal); }
static CUresult oe_cuDeviceGetName(char *s, int len, CUdevice d) { return p_cuDeviceGetName(s, len, d); }
static CUresult oe_cuDeviceTotalMem(size_t *b, CUdevice d) { return p_cuDeviceTotalMem(b, d); }
static CUresult oe_cuDeviceGetAttribute(int *v, int attr, CUdevice d) {
	return p_cuDeviceGetAttribute(v, (CUdevice_attribute)attr, d);
}
static CUresult oe_cuCtxCreate(CUcontext *c, CUdevice d) { return p_cuCtxCreate(c, 0, d); }
static CUresult oe_cuCtxDestroy(CUcontext c) { return p_cuCtxDestroy(c); }
static CUresult oe_cuCtxSetCurrent(CUcontext c) { return p_cuCtxSetCurrent(c); }
static CUresult oe_cuCtxSynchronize(void) { return p_cuCtxSynchronize(); }
static CUresult oe_cuMemAlloc(CUdeviceptr *p, size_t n) { return p_cuMemAlloc(p, n); }
static CUresult oe_cuMemFree(CUdeviceptr p) { return p_cuMemFree(p); }
static CUresult oe_cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t n) { return p_cuMemcpyHtoD(dst, src, n); }
static CUresult oe_cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t n) { return p_cuMemcpyDtoH(dst, src, n); }
static CUresult oe_cuMemsetD8(CUdeviceptr p, size_t n) { return p_cuMemsetD8(p, 0, n); }
static CUresult oe_cuMemGetInfo(size_t *free, size_t *total) { return p_cuMemGetInfo(free, total); }
static CUresult oe_cuModuleLoadData(CUmodule *m, const void *image) { return p_cuModuleLoadData(m, image); }
static CUresult oe_cuModuleUnload(CUmodule m) { return p_cuModuleUnload(m); }
static CUresult oe_cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) {
	return p_cuModuleGetFunction(f, m, name);
}
static CUresult oe_cuEventCreate(CUevent *e) { return p_cuEventCreate(e, CU_EVENT_DEFAULT); }
static CUresult oe_cuEventDestroy(CUevent e) { return p_cuEventDestroy(e); }
static CUresult oe_cuEventRecord(CUevent e) { return p_cuEventRecord(e, 0); }
static CUresult oe_cuEventSynchronize(CUevent e) { return p_cuEventSynchronize(e); }
static CUresult oe_cuEventElapsedTime(float *ms, CUevent a, CUevent b) { return p_cuEventElapsedTime(ms, a, b); }

// oe_launch launches f on a 1-D grid on the default stream. vals holds the
// n ≤ 16 kernel arguments, each in the low bytes of a 64-bit slot (every
// kernel argument is a pointer or a 4- or 8-byte scalar, and x86-64 and
// aarch64 are little-endian). The driver copies the arguments before it
// returns, so vals may be Go memory.
static CUresult oe_launch(CUfunction f, unsigned int grid, unsigned int block, uint64_t *vals, int n) {
	void *params[16];
	for (int i = 0; i < n; i++) params[i] = &vals[i];
	return p_cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, 0, params, NULL);
}

static const char *oe_errorName(CUresult r) {
	const char *s = NULL;
	if (p_cuGetErrorName == NULL || p_cuGetErrorName(r, &s) != CUDA_SUCCESS || s == NULL) return "unknown";
	return s;
}

static const char *oe_errorString(CUresult r) {
	const char *s = NULL;
	if (p_cuGetErrorString == NULL || p_cuGetErrorString(r, &s) != CUDA_SUCCESS || s == NULL) return "";
	return s;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"
)

// ErrNoDriver is wrapped by the error of Init, Open and Available when the
// NVIDIA driver library libcuda.so.1 cannot be loaded.
var ErrNoDriver = errors.New("cuda: the NVIDIA driver library libcuda.so.1 is not installed or not loadable")

// ErrNoDevice is wrapped by their error when the driver loads but reports no
// CUDA device.
var ErrNoDevice = errors.New("cuda: no CUDA device")

// Error is a failed driver API call.
type Error struct {
	// Op is the driver function that failed, e.g. "cuMemAlloc".
	Op string
	// Code is the CUresult, Name its enumerator (e.g. CUDA_ERROR_OUT_OF_MEMORY).
	Code       int
	Name, Text string
}

func (e *Error) Error() string {
	if e.Text == "" {
		return fmt.Sprintf("cuda: %s: %s (%d)", e.Op, e.Name, e.Code)
	}
	return fmt.Sprintf("cuda: %s: %s (%s)", e.Op, e.Text, e.Name)
}

// check turns a CUresult into nil or an *Error naming op.
func check(op string, r C.CUresult) error {
	if r == C.CUDA_SUCCESS {
		return nil
	}
	return &Error{Op: op, Code: int(r), Name: C.GoString(C.oe_errorName(r)), Text: C.GoString(C.oe_errorString(r))}
}

var (
	initOnce sync.Once
	initErr  error
)

// Init loads the driver library and initialises the driver; calls after the
// first return the first one's result. It returns an error wrapping
// ErrNoDriver when libcuda cannot be loaded and ErrNoDevice when it loads
// but there is no device.
func Init() error {
	initOnce.Do(func() {
		if missing := C.oe_load(); missing != nil {
			initErr = fmt.Errorf("%w (missing %s)", ErrNoDriver, C.GoString(missing))
			return
		}
		r := C.oe_cuInit()
		if r == C.CUDA_ERROR_NO_DEVICE {
			initErr = fmt.Errorf("%w (cuInit: CUDA_ERROR_NO_DEVICE)", ErrNoDevice)
			return
		}
		if err := check("cuInit", r); err != nil {
			initErr = err
			return
		}
		var n C.int
		if err := check("cuDeviceGetCount", C.oe_cuDeviceGetCount(&n)); err != nil {
			initErr = err
			return
		}
		if n == 0 {
			initErr = ErrNoDevice
		}
	})
	return initErr
}

// DeviceCount returns the number of CUDA devices.
func DeviceCount() (int, error) {
	if err := Init(); err != nil {
		return 0, err
	}
	var n C.int
	if err := check("cuDeviceGetCount", C.oe_cuDeviceGetCount(&n)); err != nil {
		return 0, err
	}
	return int(n), nil
}

// DriverVersion returns the CUDA version the driver supports, as
// 1000·major + 10·minor (12040 for 12.4).
func DriverVersion() (int, error) {
	if err := Init(); err != nil {
		return 0, err
	}
	var v C.int
	if err := check("cuDriverGetVersion", C.oe_cuDriverGetVersion(&v)); err != nil {
		return 0, err
	}
	return int(v), nil
}

// DeviceInfo describes a device.
type DeviceInfo struct {
	Ordinal int
	Name    string
	// Memory is the device's total memory in bytes.
	Memory int64
	// Major and Minor are the compute capability.
	Major, Minor int
	// SMs is the number of streaming multiprocessors.
	SMs int
}

func (d DeviceInfo) String() string {
	return fmt.Sprintf("%s (compute %d.%d, %d SMs, %.1f GiB)", d.Name, d.Major, d.Minor, d.SMs, float64(d.Memory)/(1<<30))
}

// deviceInfo queries device ordinal.
func deviceInfo(ordinal int) (C.CUdevice, DeviceInfo, error) {
	var dev C.CUdevice
	if err := check("cuDeviceGet", C.oe_cuDeviceGet(&dev, C.int(ordinal))); err != nil {
		return dev, DeviceInfo{}, err
	}
	info := DeviceInfo{Ordinal: ordinal}
	var name [256]C.char
	if err := check("cuDeviceGetName", C.oe_cuDeviceGetName(&name[0], C.int(len(name)), dev)); err != nil {
		return dev, info, err
	}
	info.Name = C.GoString(&name[0])
	var mem C.size_t
	if err := check("cuDeviceTotalMem", C.oe_cuDeviceTotalMem(&mem, dev)); err != nil {
		return dev, info, err
	}
	info.Memory = int64(mem)
	for _, a := range []struct {
		attr C.int
		dst  *int
	}{
		{C.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &info.Major},
		{C.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &info.Minor},
		{C.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &info.SMs},
	} {
		var v C.int
		if err := check("cuDeviceGetAttribute", C.oe_cuDeviceGetAttribute(&v, a.attr, dev)); err != nil {
			return dev, info, err
		}
		*a.dst = int(v)
	}
	return dev, info, nil
}

// devicePtr is a device address.
type devicePtr = C.CUdeviceptr

// The thin wrappers below are called only by Context methods, with the
// context current on a locked OS thread.

func memAlloc(bytes int64) (devicePtr, error) {
	var p C.CUdeviceptr
	err := check("cuMemAlloc", C.oe_cuMemAlloc(&p, C.size_t(bytes)))
	return p, err
}

func memFree(p devicePtr) error { return check("cuMemFree", C.oe_cuMemFree(p)) }

func memcpyHtoD(dst devicePtr, src unsafe.Pointer, bytes int64) error {
	return check("cuMemcpyHtoD", C.oe_cuMemcpyHtoD(dst, src, C.size_t(bytes)))
}

func memcpyDtoH(dst unsafe.Pointer, src devicePtr, bytes int64) error {
	return check("cuMemcpyDtoH", C.oe_cuMemcpyDtoH(dst, src, C.size_t(bytes)))
}

func memZero(p devicePtr, bytes int64) error {
	return check("cuMemsetD8", C.oe_cuMemsetD8(p, C.size_t(bytes)))
}

func memInfo() (free, total int64, err error) {
	var f, t C.size_t
	err = check("cuMemGetInfo", C.oe_cuMemGetInfo(&f, &t))
	return int64(f), int64(t), err
}

func synchronize() error { return check("cuCtxSynchronize", C.oe_cuCtxSynchronize()) }

// function is a kernel of the loaded module.
type function = C.CUfunction

// launch runs f on grid blocks of block threads with the arguments args
// (at most 16, each stored in the low bytes of its slot).
func launch(f function, grid, block int, args []uint64) error {
	if len(args) > 16 {
		return fmt.Errorf("cuda: %d kernel arguments, at most 16 supported", len(args))
	}
	var p *C.uint64_t
	if len(args) > 0 {
		p = (*C.uint64_t)(unsafe.Pointer(&args[0]))
	}
	return check("cuLaunchKernel", C.oe_launch(f, C.uint(grid), C.uint(block), p, C.int(len(args))))
}

// event is a CUDA event, for timing kernels.
type event = C.CUevent

func eventCreate() (event, error) {
	var e C.CUevent
	err := check("cuEventCreate", C.oe_cuEventCreate(&e))
	return e, err
}

func eventDestroy(e event) error { return check("cuEventDestroy", C.oe_cuEventDestroy(e)) }

func eventRecord(e event) error { return check("cuEventRecord", C.oe_cuEventRecord(e)) }

// eventElapsed waits for stop and returns the milliseconds between start and stop.
func eventElapsed(start, stop event) (float64, error) {
	if err := check("cuEventSynchronize", C.oe_cuEventSynchronize(stop)); err != nil {
		return 0, err
	}
	var ms C.float
	err := check("cuEventElapsedTime", C.oe_cuEventElapsedTime(&ms, start, stop))
	return float64(ms), err
}

// cuContext is a driver context.
type cuContext = C.CUcontext

func ctxCreate(dev C.CUdevice) (cuContext, error) {
	var c C.CUcontext
	err := check("cuCtxCreate", C.oe_cuCtxCreate(&c, dev))
	return c, err
}

func ctxDestroy(c cuContext) error { return check("cuCtxDestroy", C.oe_cuCtxDestroy(c)) }

func ctxSetCurrent(c cuContext) error { return check("cuCtxSetCurrent", C.oe_cuCtxSetCurrent(c)) }

// module is a loaded PTX module.
type module = C.CUmodule

// moduleLoad JIT-compiles the NUL-terminated PTX image for the current device.
func moduleLoad(ptx string) (module, error) {
	image := C.CString(ptx)
	defer C.free(unsafe.Pointer(image))
	var m C.CUmodule
	err := check("cuModuleLoadData", C.oe_cuModuleLoadData(&m, unsafe.Pointer(image)))
	return m, err
}

func moduleUnload(m module) error { return check("cuModuleUnload", C.oe_cuModuleUnload(m)) }

func moduleFunction(m module, name string) (function, error) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var f C.CUfunction
	err := check("cuModuleGetFunction "+name, C.oe_cuModuleGetFunction(&f, m, cname))
	return f, err
}
