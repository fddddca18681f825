package embed

// Family is what a method optimises, as the paper groups the methods in
// its "Ordinal Embedding Approaches" section (Vankadara et al.). The
// paper's protocol treats the families differently: Gram-matrix methods
// are left out above 10,000 items (Info.PaperMaxItems), landmark methods
// choose their own triplets.
type Family string

// Families of the registered methods.
const (
	// FamilyEmbedding methods optimise the n×d embedding directly: SOE, STE,
	// t-STE, CKL-x, GNMDS-x.
	FamilyEmbedding Family = "embedding"
	// FamilyGram methods optimise an n×n Gram matrix and project it to rank
	// d: GNMDS, CKL, FORTE.
	FamilyGram Family = "gram"
	// FamilyLandmark methods embed landmarks first and place the other
	// items against them, asking an oracle: LOE, LLOE.
	FamilyLandmark Family = "landmark"
	// FamilyNeural methods train a network that maps items to points: OENN.
	FamilyNeural Family = "neural"
)

// String returns the family's name.
func (f Family) String() string { return string(f) }
