#!/usr/bin/env bash
# Builds the JMH benchmarks of the pool (scheduler/src/jmh/java, Maven profile "jmh") and runs them.
#
#   bench/jmh.sh                      # all PoolBenchmark runs, JSON results in scheduler/target/jmh-pool.json
#   bench/jmh.sh PoolBenchmark.mixedStream -p workers=1000 -prof gc
#   bench/jmh.sh -h                   # JMH's own options
#
# Arguments, when given, go to org.openjdk.jmh.Main unchanged (and replace the defaults).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../scheduler"

mvn -q -B -Pjmh -DskipTests test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/jmh.classpath -Dmdep.includeScope=test

if [ "$#" -eq 0 ]; then
  set -- PoolBenchmark -rf json -rff target/jmh-pool.json
fi
exec java -cp "target/test-classes:target/classes:$(cat target/jmh.classpath)" org.openjdk.jmh.Main "$@"
