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
// Errors: a label count that differs from its rows, train and test of
// different widths, fewer than 2 training rows (k would be 0), no test row,
// and NaN, Inf or overflowing entries.
func CrossKNNError(train *mat.Dense, trainLabels []int, test *mat.Dense, testLabels []int) (float64, error) {
	nTrain, d := train.Dims()
	nTest, dTest := test.Dims()
	switch {
	case len(trainLabels) != nTrain:
		return 0, fmt.Errorf("metrics: CrossKNNError: %d labels for %d training points", len(trainLabels), nTrain)
	case len(testLabels) != nTest:
		return 0, fmt.Errorf("metrics: CrossKNNError: %d labels for %d test points", len(testLabels), nTest)
	case d != dTest:
		return 0, fmt.Errorf("metrics: CrossKNNError: training points have %d columns, test points %d", d, dTest)
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
