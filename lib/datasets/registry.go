package datasets

import (
	"fmt"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Spec describes one registered dataset: what the paper used and which files
// hold it.
type Spec struct {
	Name        string
	Description string
	// Kind says what the dataset holds: points (Load) or people's answered
	// comparisons (LoadComparisons).
	Kind Kind
	// N and Dim are the paper's size: the number of points its experiments
	// use by default and the original dimension (for gmm and uniform, the
	// defaults of Options.N and Options.Dim).
	N, Dim int
	// Available is the number of points in the files (0 for the synthetic
	// sets, which generate any number). It exceeds N for Birch1 and Birch3,
	// and for USPS, whose files hold its train and test sets. For a dataset
	// of comparisons, N and Available are its number of items, and Dim is 0.
	Available int
	// Train is the number of leading points of the files that form the
	// train set the paper's experiments use (0: no such split). Load takes
	// up to Train points from them alone: N = 0 gives the train set itself,
	// a smaller N a subsample of it; a larger N draws from all Available.
	Train int
	// Classes is the number of label values; 0 when the dataset has no labels.
	Classes int
	// Synthetic sets are generated from Options.Seed and have no files.
	Synthetic bool
	// Files lists every file Load reads, in the order the loader takes them.
	Files []File

	// load parses the located files (paths in the order of Files).
	load func(paths []string) (*mat.Dense, []int, error)
	// generate draws n points in dim dimensions for a synthetic set.
	generate func(n, dim int, seed uint64) (*mat.Dense, []int)
	// compare parses the located files of a dataset of comparisons.
	compare func(paths []string) (*Comparisons, error)
}

// Kind is what a dataset holds.
type Kind int

const (
	// KindPoints is a dataset of points (and perhaps labels), from which
	// the paper's protocol draws triplets.
	KindPoints Kind = iota
	// KindComparisons is a dataset of comparisons people answered about
	// named items: no points, its own triplets.
	KindComparisons
)

// String names the kind as oerun data prints it.
func (k Kind) String() string {
	switch k {
	case KindPoints:
		return "points"
	case KindComparisons:
		return "comparisons"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Labeled reports whether the dataset has class labels.
func (s Spec) Labeled() bool { return s.Classes > 0 }

// File is one data file of a dataset.
type File struct {
	// Path is relative to $OE_DATA, data/ and the download cache.
	Path string
	// URL is the canonical download address; Mirrors are tried after it.
	URL     string
	Mirrors []string
	// Sums are the accepted checksums: the file verifies when any matches
	// (a locally kept copy and the canonical download may differ in their
	// compressed bytes, as Debian's Fashion-MNIST files do).
	Sums []Checksum
	// Member, when set, says that URL is a .tar.gz archive (a repository
	// snapshot: its entries lie under one top folder, which Member leaves
	// out) and names the file in it; Sums are then of the file's content,
	// whether a copy is kept compressed or not. A Member "DIR/*.EXT" stands
	// for the list of the names of DIR's .EXT files without the extension,
	// in increasing byte order, one a line.
	Member string
}

// shapeSet describes a UEF shape set as packaged by the clustering-benchmarks
// battery: gzip text points plus a labels0 file.
func shapeSet(name, title string, n, classes int, dataSHA, labelsSHA string) Spec {
	return Spec{
		Name:        name,
		Description: fmt.Sprintf("%s (UEF shape set, Fränti & Sieranoja), %d points in 2D, %d clusters", title, n, classes),
		N:           n, Dim: 2, Available: n, Classes: classes,
		Files: []File{sipuFile(name+".data.gz", dataSHA), sipuFile(name+".labels0.gz", labelsSHA)},
		load:  loadPointsAndLabels(2),
	}
}

// sipuURL is the clustering-benchmarks battery (Gagolewski et al., v1.1.0),
// the source of the shared sipu/*.gz files.
const sipuURL = "https://github.com/gagolews/clustering-data-v1/raw/v1.1.0/sipu/"

func sipuFile(base, sha string) File {
	return File{Path: "sipu/" + base, URL: sipuURL + base, Sums: []Checksum{sha256Sum(sha, sourceShared(base))}}
}

// sourceShared names where a shared-folder checksum comes from: manifest.tsv
// lists the data files; the labels0 files are not in it, and their SHA-256
// was computed from the copies in the shared data folder.
func sourceShared(base string) string {
	if strings.Contains(base, ".labels0.") {
		return "sha256sum of the shared data folder's copy (not in manifest.tsv)"
	}
	return "shared data manifest.tsv"
}

const (
	mnistURL   = "http://yann.lecun.com/exdb/mnist/"
	mnistS3URL = "https://ossci-datasets.s3.amazonaws.com/mnist/"
	fmnistURL  = "http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/"
	kmnistURL  = "http://codh.rois.ac.jp/kmnist/dataset/kmnist/"
	// torchvisionMNIST is where the MNIST, Fashion-MNIST and KMNIST MD5s were read.
	torchvisionMNIST = "torchvision torchvision/datasets/mnist.py, resources"
)

// specs is the registry, in the order Names reports.
var specs = []Spec{
	shapeSet("aggregation", "Aggregation", 788, 7,
		"59ddd9d8f2c66541074aa3dc3469a00c0465245c201ddb73e324353ba4e918e2",
		"f12a35f339e700b7b8ea6c78277649dad2fd08c5c35843f518c9f3422873a57e"),
	shapeSet("compound", "Compound", 399, 6,
		"2ad70540bc2b47aaa03e78d72ab8e4d0c06fa9e1f7b96a8184a13e4ec28c666a",
		"e9fc72b1ddf6f8762e1d7efad2604f06b970bcf5a7fb3290ae2d3cc9a42e748c"),
	shapeSet("pathbased", "Path Based", 300, 3,
		"21d604a7c11d258deb82d12db370a731bd0747ce093c1e1e7157f4d2fdd1942c",
		"1768488828e6d72490f934a9e0a5f103c34f00044e95e57f519992f2277a0845"),
	shapeSet("spiral", "Spiral", 312, 3,
		"ad55d304b08979778e27cf3f5d8a9bf82ec5d0c8b658ea53f8a63990a2a9bfc1",
		"6a47fdca489242cf14b31d8de50b49b2e4e8b8c56f92eeee94456b685bdc19e4"),
	{
		Name: "birch1",
		Description: "Birch1 (UEF, Zhang et al.): 100 Gaussian clusters on a regular grid in 2D; " +
			"the paper uses n = 10,000, so Load draws a seeded subsample of the 100,000 points unless Options.N says otherwise; " +
			"the paper treats it as unlabeled, the file's 100 cluster labels are returned",
		N: 10000, Dim: 2, Available: 100000, Classes: 100,
		Files: []File{
			sipuFile("birch1.data.gz", "ea519ed9d896ef54ff0d1acae0298bc859915610057825ac796c078b8c2724c1"),
			sipuFile("birch1.labels0.gz", "989283c30436b8be9c1fc6a6bcf897abdb8b9b5627c9852fec1b8517bde499f1"),
		},
		load: loadPointsAndLabels(2),
	},
	{
		Name: "birch3",
		Description: "Birch3 (UEF, Zhang et al.): 100 clusters of random size at random places in 2D, unlabeled; " +
			"the paper uses n = 10,000, so Load draws a seeded subsample of the 100,000 points unless Options.N says otherwise",
		N: 10000, Dim: 2, Available: 100000,
		Files: []File{{
			Path: "sipu/birch3.txt",
			URL:  "http://cs.joensuu.fi/sipu/datasets/birch3.txt",
			Sums: []Checksum{sha256Sum("ee8b8916d0a9a120be207f97a1c0f22bcc24d2b4d45d4e18790ddad7117e22d5", "shared data manifest.tsv")},
		}},
		load: loadPoints(2),
	},
	{
		Name: "worms",
		Description: "Worms 2D (worms_2, Sieranoja & Fränti): 105,600 points along 35 worm-like shapes; " +
			"the paper treats it as unlabeled, the file's 35 shape labels are returned",
		N: 105600, Dim: 2, Available: 105600, Classes: 35,
		Files: []File{
			sipuFile("worms_2.data.gz", "5d6ab7ff31ed90facd913f8a81e7a230d2e6ae7def0eb0c67d2e901c76d50158"),
			sipuFile("worms_2.labels0.gz", "05037c553809abe120c58a76fcf4eb13a65276fcb1af433fb40bd51c8bcc41b2"),
		},
		load: loadPointsAndLabels(2),
	},
	{
		Name:        "char",
		Description: "CHAR: UCI optical digits test set as scikit-learn's load_digits, 8×8 images with pixel counts 0..16, 10 classes",
		N:           1797, Dim: 64, Available: 1797, Classes: 10,
		Files: []File{{
			Path: "char/digits.csv.gz",
			URL:  "https://raw.githubusercontent.com/scikit-learn/scikit-learn/1.2.1/sklearn/datasets/data/digits.csv.gz",
			Sums: []Checksum{sha256Sum("46abec6b12486ad9e51943373abcf22bbea1b5a51a1619b361570d8893f1464a", "shared data manifest.tsv")},
		}},
		load: loadCSVWithLabel(64, 0, 9),
	},
	{
		Name: "usps",
		Description: "USPS (LIBSVM usps.bz2, the train set of 7,291, then usps.t.bz2, the test set of 2,007): 16×16 handwritten digits, " +
			"values mapped from [-1, 1] to grey levels 0..255 and labels 1..10 to 0..9 as torchvision's USPS does; " +
			"the paper uses the train set (n = 7,291), and both in its out-of-sample experiment",
		N: 7291, Dim: 256, Available: 9298, Train: 7291, Classes: 10,
		Files: []File{{
			Path: "usps/usps.bz2",
			URL:  "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/multiclass/usps.bz2",
			// torchvision torchvision/datasets/usps.py, split_list["train"].
			Sums: []Checksum{md5Sum("ec16c51db3855ca6c91edd34d0e9b197", "torchvision torchvision/datasets/usps.py, split_list")},
		}, {
			Path: "usps/usps.t.bz2",
			URL:  "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/multiclass/usps.t.bz2",
			// torchvision torchvision/datasets/usps.py, split_list["test"].
			Sums: []Checksum{md5Sum("8ea070ee2aca1ac39742fdd1ef5ed118", "torchvision torchvision/datasets/usps.py, split_list")},
		}},
		load: loadUSPS,
	},
	idxSet("mnist", "MNIST train set: 28×28 handwritten digits, raw grey levels 0..255, 10 classes",
		mnistURL, []string{mnistS3URL},
		[]Checksum{md5Sum("f68b3c2dcbeaaa9fbdd348bbdeb94873", torchvisionMNIST)},
		[]Checksum{md5Sum("d53e105ee54ea40749a09fcbcd1e9432", torchvisionMNIST)}),
	idxSet("fmnist", "Fashion-MNIST train set: 28×28 images of fashion items, raw grey levels 0..255, 10 classes",
		fmnistURL, nil,
		[]Checksum{
			sha256Sum("b0564c3eedabfbf835052cff8503ea422014ce006caf5b757f851416ee8300c7", "shared data manifest.tsv (Debian copy)"),
			md5Sum("8d4fb7e6c68d591d4c3dfef9ec88bf0d", torchvisionMNIST),
		},
		[]Checksum{
			sha256Sum("0ae29f65d86684f32d1b9c85147786c547b9c6aebcaf235f0400a0cce308b056", "shared data manifest.tsv (Debian copy)"),
			md5Sum("25c81989df183df01b3e8a0aad5dffbe", torchvisionMNIST),
		}),
	idxSet("kmnist", "Kuzushiji-MNIST train set: 28×28 cursive Japanese characters, raw grey levels 0..255, 10 classes; "+
		"the increasing-embedding-dimension experiment uses a random 10,000 of them (Options.N = 10000)",
		kmnistURL, nil,
		[]Checksum{md5Sum("bdb82020997e1d708af4cf47b453dcf7", torchvisionMNIST)},
		[]Checksum{md5Sum("e144d726b3acfaa3e44228e80efcd344", torchvisionMNIST)}),
	{
		Name: "covtype",
		Description: "COVTYPE (UCI forest covertype): 54 unscaled cartographic features, cover type labels 1..7 " +
			"(the paper's text says 4 types; the data has 7)",
		N: 581012, Dim: 54, Available: 581012, Classes: 7,
		Files: []File{{
			Path:    "covtype/covtype.data.gz",
			URL:     "https://archive.ics.uci.edu/ml/machine-learning-databases/covtype/covtype.data.gz",
			Mirrors: []string{"https://ndownloader.figshare.com/files/5976039"},
			// scikit-learn sklearn/datasets/_covtype.py, ARCHIVE (the figshare copy it downloads).
			Sums: []Checksum{sha256Sum("614360d0257557dd1792834a85a1cdebfadc3c4f30b011d56afee7ffb5b15771", "scikit-learn sklearn/datasets/_covtype.py, ARCHIVE")},
		}},
		load: loadCSVWithLabel(54, 1, 7),
	},
	{
		Name: "gmm",
		Description: "GMM: two unit-variance Gaussians centred at 0 and 100·1 in Options.Dim dimensions " +
			"(default 2), half the points each, labels 0 and 1; the paper's default n is 5,000",
		N: 5000, Dim: 2, Classes: 2, Synthetic: true,
		generate: generateGMM,
	},
	{
		Name:        "uniform",
		Description: "Uniform: points drawn uniformly from [0, 10]^Options.Dim (default 2), unlabeled; the paper's default n is 10,000",
		N:           10000, Dim: 2, Synthetic: true,
		generate: generateUniform,
	},
	material,
}

// idxSet describes an MNIST-format dataset: gzip IDX train images and labels.
func idxSet(name, desc, url string, mirrors []string, imageSums, labelSums []Checksum) Spec {
	file := func(base string, sums []Checksum) File {
		f := File{Path: name + "/" + base, URL: url + base, Sums: sums}
		for _, m := range mirrors {
			f.Mirrors = append(f.Mirrors, m+base)
		}
		return f
	}
	return Spec{
		Name: name, Description: desc,
		N: 60000, Dim: 784, Available: 60000, Classes: 10,
		Files: []File{
			file("train-images-idx3-ubyte.gz", imageSums),
			file("train-labels-idx1-ubyte.gz", labelSums),
		},
		load: loadIDXImages,
	}
}

// Names returns the registered dataset names in a stable order: the 2D sets,
// the image sets, COVTYPE, the synthetic sets, then the datasets of
// comparisons.
func Names() []string {
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.Name
	}
	return names
}

// Lookup returns the Spec registered under name (case-insensitive).
func Lookup(name string) (Spec, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	for _, s := range specs {
		if s.Name == key {
			s.Files = slices.Clone(s.Files) // callers may not edit the registry
			return s, nil
		}
	}
	return Spec{}, fmt.Errorf("datasets: unknown dataset %q (known: %s)", name, strings.Join(Names(), ", "))
}
