// Package exp is the API experiment scripts are written in. A script in
// experiments/ is an ordinary Go file (package main, build tag experiment)
// that oerun interprets with yaegi; it reads like the paper's section:
//
//	e := exp.Begin("For a general ordinal embedding task, which algorithm should you use?")
//	e.Paper("Section 4.2, Figure 2, Table 3")
//	var runs []exp.Run
//	for _, a := range exp.Algorithms() {
//		runs = append(runs, exp.Run{Dataset: "char", N: exp.Pick(100, 600, 0), Dim: 30, Lambda: 2, Algorithm: a})
//	}
//	res := e.Run(e.WithinPaperLimits(exp.Repeat(runs, exp.Pick(1, 3, 5))))
//	e.Table("Test triplet error", res.Table("algorithm", "dataset", exp.TestError))
//	e.Bars(exp.BarPlot{Title: "Test triplet error", Results: res, Groups: "dataset", Bars: "algorithm", Y: exp.TestError})
//
// Run executes the runs that are not yet in the run cache (in parallel, with
// a progress bar) and returns every run's result from the cache; under
// `oerun report` it executes nothing. Tables and figures go into the report
// in the order the script adds them; oerun writes the report when the script
// returns. Collapsed lists the runs whose embedding collapsed (many items on
// one point, an error above a random embedding's), which a reader of an
// error curve would otherwise take for a bug.
//
// Scripts take the paper's facts from here, never a copy: its methods in
// Table 3's order and by family (Algorithms, PassiveAlgorithms, from the
// algorithm registry of lib/embed), the datasets' sizes (PaperN, from
// lib/datasets), the methods it leaves out on large datasets
// (WithinPaperLimits) and its Table 3 (Table3, BesideTable3).
//
// A script that checks or compares other scripts' results declares no
// copy of their runs: e.Section("general") returns the runs that
// experiments/general.go declared at this profile, read from the cache, and
// executes that script first when its recorded runs are missing or out of
// date (experiments/reproduction.go reads every section so). It checks the
// paper's findings with the Results methods of findings.go (Argmin, Rank,
// Endpoints, MedianCurve, Slope, EveryDataset, ...), each tested, so that a
// PASS or FAIL verdict rests on tested rules. A rule is judged on a group
// of runs (a dataset) only once all of them are stored; made through
// e.Check, a rule's groups still missing runs are noted as it awaits them
// (EveryGroup does, and Await for a rule that groups runs itself), and
// `oerun run --budget --order findings` executes first the runs that let
// the most checks be judged for their cost.
//
// Datasets of comparisons people answered (lib/datasets KindComparisons,
// e.g. material) have no points: their runs are declared with
// e.Comparisons (fitted on the dataset's training answers, scored on its
// test answers, MajorityTestError the authors' measure) and
// e.CrossValidate (one run per fold of the training answers; ChooseDims
// reads the cross-validated d). BesidePeers sets results beside published
// figures, and NamedMap draws an embedding with its items' names
// (experiments/crowd.go).
//
// A script may declare runs from others' results, as crowd.go fits each
// method at the d its cross-validation picks. `oerun plan`, `--budget` and
// `--shard` declare a script from what the cache holds (runner.Declare),
// so such runs are planned once the results they follow from are stored:
// declare them only from complete results (ChooseDims leaves out a method
// with a fold missing, and crowd.go's CKL-x waits for every fold of its μ),
// never from some, which would plan runs the complete results may not ask
// for.
//
// Mistakes in a script (an unknown dataset, a metric that does not exist)
// panic with a message; oerun reports them with the script's file and line.
// An algorithm that is not registered in this build, or a dataset whose
// files are missing and that has no stand-in, is skipped with a note in the
// report.
package exp
