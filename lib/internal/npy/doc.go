// Package npy reads and writes the header of NumPy's .npy format (format
// versions 1.0 to 3.0, https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html):
// the magic string, the version, and the header dictionary, a restricted
// Python literal such as
//
//	{'descr': '<i4', 'fortran_order': False, 'shape': (10, 3), }
//
// What follows the header is the array's data, which the callers
// (lib/triplets for triplet files, lib/embed for embeddings) decode
// themselves. The header comes from untrusted files: ReadHeader bounds what
// it reads, and Header.DataBytes lets a caller check the shape against the
// file's size before it allocates anything of that shape. Errors name the
// field at fault; callers add the file name.
package npy
