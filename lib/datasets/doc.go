// Package datasets loads the paper's fifteen datasets as n × dim point
// matrices: the 2D clustering benchmarks (Aggregation, Compound, Path Based,
// Spiral, Birch1, Birch3, Worms), CHAR, USPS, MNIST, FMNIST, KMNIST, COVTYPE
// and the synthetic GMM and Uniform sets; and datasets of comparisons people
// answered about named items (Kind KindComparisons: material), which
// LoadComparisons returns with their authors' training and test queries.
//
// # Where files come from
//
// Each file of a dataset has a relative path (for example
// "sipu/aggregation.data.gz", the layout of the shared data folder) and is
// looked up, in this order, in
//
//  1. $OE_DATA/<path>,
//  2. <root>/data/<path>, where <root> is the nearest directory at or above
//     the working directory that holds a go.mod file (the module root when
//     running inside the checkout; no data/ folder is used when there is none),
//  3. <cache>/<path>, where <cache> is $OE_CACHE or os.UserCacheDir()/oe.
//
// A file found nowhere is downloaded once from its canonical URL (then its
// mirrors) into the cache and verified before it is kept. A file that is a
// member of a repository snapshot (File.Member; material's) is extracted
// from one download of the snapshot's .tar.gz, verified by the checksum of
// its content, and kept in the cache (gzip-compressed where its path ends
// in .gz). Setting OE_OFFLINE
// to a non-empty value other than "0" turns downloading off, so that a missing
// file fails at once with a message naming the URL it would come from.
//
// Every file is verified before use, wherever it was found, against the
// checksums recorded in the registry: SHA-256 from the shared data manifest
// for the files present there, and the MD5 or SHA-256 that torchvision or
// scikit-learn publish for the canonical downloads (each checksum names its
// source; for an archive member, the checksum of its content, so that a
// copy kept compressed verifies too). A file passes when any of its
// checksums matches; a mismatch is an error naming the file and both hashes.
//
// # What Load returns
//
// Values follow the authors' code (see Spec descriptions): image pixels are
// raw grey levels 0..255 (no /255 scaling), USPS is mapped from LIBSVM's
// [-1, 1] to 0..255 as torchvision does, CHAR pixels are 0..16, COVTYPE
// features are unscaled. Options.N draws a seeded subsample without
// replacement; Options.PCA projects onto the top principal components, fitted
// on all points of the dataset before subsampling (as the authors' PCA-MNIST
// did). Birch1 and Birch3 default to the paper's n = 10,000, a seeded
// subsample of their 100,000 points; USPS defaults to its train set, the
// first 7,291 of the 9,298 points of its two files (Spec.Train).
package datasets
