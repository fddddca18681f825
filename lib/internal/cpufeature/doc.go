// Package cpufeature reports the x86 vector extensions that the assembly
// kernels of oe use, read once from CPUID and XCR0 at start-up. An extension
// counts as present only when the operating system also saves its register
// state, so a kernel guarded by one of these flags cannot fault. On other
// architectures, and in builds with the noasm tag (which drop every
// assembly file of oe), every flag is false and the portable Go loops run.
package cpufeature
