package metrics

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// CrossKNNError returns the error of classifying each row of test by a
// majority vote of its k nearest rows of train: the fraction of test rows
// whose predicted label differs from testLabels, with k = ⌊log₂ n⌋ for n
// training rows. It is KNNError with the split given rather than drawn, and
// the same distances, tie rules and k rule (see KNNError); the paper's OENN
// out-of-sample experiment uses it to ask whether new items land among the
// training items of their class.
//
// CrossKNNError panics on a label count that differs from its rows and on
// train and test of different widths (see the package comment). Errors:
// fewer than 2 training rows (k would be 0), no test row, and NaN, Inf or
// overflowing entries.
func CrossKNNError(train *mat.Dense, trainLabels []int, test *mat.Dense, testLabels []int) (float64, error) {
	nTrain, d := train.Dims()
	nTest, dTest := test.Dims()
	switch {
	case len(trainLabels) != nTrain:
		panic(fmt.Sprintf(rowMismatch, "CrossKNNError", "train", nTrain, "trainLabels", len(trainLabels)))
	case len(testLabels) != nTest:
		panic(fmt.Sprintf(rowMismatch, "CrossKNNError", "test", nTest, "testLabels", len(testLabels)))
	case d != dTest:
		panic(fmt.Sprintf("metrics: CrossKNNError: train has %d columns, test %d", d, dTest))
	}
	switch {
	case nTrain < 2:
		return 0, fmt.Errorf("metrics: CrossKNNError: need at least 2 training points, have %d", nTrain)
	case nTest == 0:
		return 0, fmt.Errorf("metrics: CrossKNNError: no test points")
	}
	for _, x := range []*mat.Dense{train, test} {
		if err := checkFinite("CrossKNNError", x); err != nil {
			return 0, err
		}
	}
	pred := knnPredict(train.RawMatrix(), trainLabels, test.RawMatrix(), neighbourCount(nTrain))
	return errorRate(pred, testLabels), nil
}
