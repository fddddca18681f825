package job

import (
	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
)

// Names of the metrics an Outcome carries. Quality metrics are fractions in
// [0, 1]; times are seconds.
const (
	// TrainError is the triplet error on the training triplets.
	TrainError = "train_error"
	// TestError is the triplet error on fresh noiseless test triplets.
	TestError = "test_error"
	// Procrustes is the Procrustes disparity to the ground truth.
	Procrustes = "procrustes"
	// KNNError is the kNN classification error on the embedding, and
	// KNNErrorData on the original data, for labelled datasets.
	KNNError     = "knn_error"
	KNNErrorData = "knn_error_data"
	// FitSeconds is the wall time of the algorithm's Fit.
	FitSeconds = "fit_seconds"
	// ConvergeSeconds is the paper's running time: the time until the stopping
	// rule's last improving check.
	ConvergeSeconds = "converge_seconds"
	// SetupSeconds is the time to load the data and draw the triplets, and
	// EvalSeconds the time to compute the metrics.
	SetupSeconds = "setup_seconds"
	EvalSeconds  = "eval_seconds"
	// Epochs is the number of epochs run; Triplets the number of training
	// triplets; Queries the oracle queries of an active method.
	Epochs   = "epochs"
	Triplets = "triplets"
	Queries  = "queries"
	// Items is the number of items embedded and DataDim the dimension of
	// the ground truth.
	Items   = "items"
	DataDim = "data_dim"
	// MajorityTestError is, for a dataset of comparisons (runner/evaluate's
	// Comparisons), the fraction of test queries without a tie whose
	// majority answer the embedding violates (lib/metrics MajorityError),
	// the dataset authors' measure; TestError is then the triplet error on
	// every test vote.
	MajorityTestError = "majority_test_error"
)

// Names of the metrics of an OENN out-of-sample run (runner/evaluate's
// Extension) besides those above, which there measure OENN_train on the
// training items.
const (
	// ExtensionError is the fraction of the extension's training triplets
	// (new item, training item, training item) that its embedding violates:
	// the paper's TE.
	ExtensionError = "extension_error"
	// ExtensionTestError is the same on fresh noiseless triplets of that
	// form.
	ExtensionTestError = "extension_test_error"
	// ExtensionKNNError and ExtensionKNNErrorData are the error of
	// classifying each new item by its nearest training items
	// (lib/metrics' CrossKNNError) in the embedding and in the data.
	ExtensionKNNError     = "extension_knn_error"
	ExtensionKNNErrorData = "extension_knn_error_data"
	// ExtensionProcrustes is the Procrustes disparity of all items'
	// embedding to the data.
	ExtensionProcrustes = "extension_procrustes"
	// ExtensionSeconds and ExtensionEpochs are the wall time and epochs of
	// the extension's fit; ExtensionItems the new items and
	// ExtensionTriplets its training triplets.
	ExtensionSeconds  = "extension_seconds"
	ExtensionEpochs   = "extension_epochs"
	ExtensionItems    = "extension_items"
	ExtensionTriplets = "extension_triplets"
)

// Outcome is what a successful run produces.
type Outcome struct {
	// Metrics holds every measured number by name (see the constants).
	Metrics map[string]float64
	// Trace is the per-epoch trace of the fit.
	Trace []embed.Epoch
	// StopReason is why the fit stopped (embed.Stop*).
	StopReason string
	// Embedding is the learned n×d embedding, and Labels the class of each
	// item (nil for unlabelled data).
	Embedding *mat.Dense
	Labels    []int
	// Threads is the number of threads the fit ran on.
	Threads int
}
