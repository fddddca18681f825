// Package hostinfo describes the machine a run executes on — host name,
// operating system, CPU model and cores, GPU, Go version — and the git commit
// of the code, so that every stored result says where and from what it came.
package hostinfo
