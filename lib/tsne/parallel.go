package tsne

// rowsPerTask is the number of points one task of a parallel pass handles.
// Every pass writes only per-point outputs, so the result does not depend on
// how the points are split among threads.
const rowsPerTask = 64
