package gram

import "github.com/oe-lab/oe/lib/embed"

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

// checkMemory fails, before anything of size n or m is allocated, when a
// run's working state (workingBytes) exceeds embed.MemoryLimit.
func checkMemory(method string, n, m, d, b, depth int) error {
	return embed.CheckMemory("gram: "+method, n, m, d, workingBytes(n, m, d, b, depth))
}
