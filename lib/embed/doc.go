// Package embed defines the interface that every ordinal embedding algorithm
// implements, the Result it returns, the paper's stopping rule, and a registry
// of algorithms by name.
//
// Passive methods (SOE, STE, t-STE, CKL, CKL-x, GNMDS, FORTE, OENN) learn from
// a fixed triplet Set; active methods (LOE, LLOE) ask an Oracle. A Problem
// carries whichever the method needs. Algorithms are plain structs holding
// their hyper-parameters, in the manner of scikit-learn estimators:
//
//	res, err := (&tripletloss.SOE{}).Fit(ctx, embed.Problem{Dim: 2, Train: train}, embed.Options{Seed: 1})
//
// Packages that implement algorithms register them with Register, so that the
// command line and experiment scripts can construct them by name with New.
//
// WriteEmbedding and ReadEmbedding store an embedding as CSV or as a float64
// NumPy .npy array, chosen by the file's extension.
package embed
