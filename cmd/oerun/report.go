package main

func init() {
	register("report", command{
		summary: "rebuild experiment reports from results.db without running anything",
		run:     func(args []string) error { return runScripts("report", args, true) },
	})
}
