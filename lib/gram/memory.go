package gram

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// MemoryLimit caps the memory, in bytes, that a Fit may allocate for its
// working state; a run that would need more fails before allocating, with an
// error naming n, the number of triplets and the bytes needed. Zero means the
// default: half of the machine's physical memory (4 GiB where that cannot be
// read).
//
// The methods never form the n×n Gram matrix (see the package comment); what
// grows is the triplet pattern (O(m)) and the n×(block) Krylov workspace.
var MemoryLimit int64

// fallbackMemory is the default limit where /proc/meminfo is unavailable.
const fallbackMemory = 4 << 30

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

// workingBytes estimates the peak memory of a run on n items, m triplets,
// dimension d with Krylov blocks of b columns and depth blocks per basis.
func workingBytes(n, m, d, b, depth int) int64 {
	n64, m64 := int64(n), int64(m)
	edges := min(2*m64, n64*(n64-1)/2)
	perTriplet := int64(2*2*8 + 2*4 + 2*8)      // coefficients (FORTE: its candidates' too), slot lists, build keys
	perEdge := int64(2*4 + 8 + 2*(4+4+8) + 6*8) // items, slot offsets, adjacency and its values, weights/step/Adam
	perItem := int64(8*(3*d+(2*depth+4)*b) + 3*8 + 2*8)
	return m64*perTriplet + edges*perEdge + n64*perItem
}

// checkMemory fails when a run would need more than the memory limit.
func checkMemory(method string, n, m, d, b, depth int) error {
	need, limit := workingBytes(n, m, d, b, depth), memoryLimit()
	if need > limit {
		return fmt.Errorf("gram: %s on n=%d items with %d triplets (d=%d) needs about %d bytes (%.1f GiB), over the memory limit of %d bytes (gram.MemoryLimit)",
			method, n, m, d, need, float64(need)/(1<<30), limit)
	}
	return nil
}
