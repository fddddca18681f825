package embed

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// MemoryLimit caps the memory, in bytes, that a Fit may allocate for its
// working state: a run whose estimate exceeds it fails before allocating,
// with an error wrapping ErrTooLarge. Zero means the default: half of the
// machine's physical memory (4 GiB where that cannot be read).
var MemoryLimit int64

// ErrTooLarge is wrapped by the error of a run whose memory estimate exceeds
// MemoryLimit.
var ErrTooLarge = errors.New("over the memory limit")

// fallbackMemory is the default limit where /proc/meminfo is unavailable.
const fallbackMemory = 4 << 30

// memoryLimit returns the limit in force: MemoryLimit, or its default.
func memoryLimit() int64 {
	if MemoryLimit > 0 {
		return MemoryLimit
	}
	if total, err := physicalMemory("/proc/meminfo"); err == nil && total > 0 {
		return total / 2
	}
	return fallbackMemory
}

// physicalMemory reads MemTotal from a meminfo file.
func physicalMemory(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil {
				return 0, fmt.Errorf("%s: MemTotal %q: %w", path, fields[1], err)
			}
			return kb << 10, nil
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("%s: no MemTotal line", path)
}

// CheckMemory returns an error wrapping ErrTooLarge when need bytes, a
// method's estimate of its working state for the problem (n items, m
// triplets, dimension d), exceed the memory limit; it names them all.
func CheckMemory(method string, n, m, d int, need int64) error {
	limit := memoryLimit()
	if need <= limit {
		return nil
	}
	return fmt.Errorf("%s: n=%d items with %d triplets (d=%d) need about %d bytes (%.1f GiB): %w of %d bytes (embed.MemoryLimit, by default half the machine's memory)",
		method, n, m, d, need, float64(need)/(1<<30), ErrTooLarge, limit)
}

// floorBytes is the least working state of any method: the initial and the
// final n×d embedding and an optimiser's two moments, in float64, and the
// triplets (12 bytes each). Problem.Check holds every problem to it, before
// a method allocates anything of size n.
func floorBytes(n, m, d int) int64 {
	return 4*8*int64(n)*int64(d) + 12*int64(m)
}
