// Package plan decides which runs to execute, where and in which order: it
// lists the runs that experiment scripts declare and results.db lacks
// (runner.Declare), estimates what each costs on this machine (Model,
// calibrated on the runs the database holds), splits them into
// cost-balanced, disjoint shards for the tasks of a Slurm job array
// (Split), and orders them for a time budget: cheapest first, or by the
// checks of the paper's findings their results let be judged (FindingsFirst).
//
// Everything here is deterministic: the same scripts, data and database give
// the same plan and the same split in every process, which is what lets the
// tasks of an array each compute their own shard.
package plan
