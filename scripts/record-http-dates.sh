#!/bin/sh
# Records what Tomcat's own date parser (FastHttpDateFormat.parseDate, from the installed
# Tomcat 10.1's jars) answers for each line of test/protocol/tomcat/http-dates.txt, into
# test/protocol/tomcat/http-dates.tsv (milliseconds, or -1 for "not a date", a tab, the input).
# test/protocol/http-date.test.ts holds src/protocol/http-date.ts to these answers.
# The JVM runs under three TZ values: the answers must not depend on the machine's zone.
set -eu
cd "$(dirname "$0")/.."
lib=${CATALINA_HOME:-/usr/share/tomcat10}/lib
cp="$lib/tomcat-coyote.jar:$lib/tomcat-util.jar"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
javac -d "$out" -cp "$cp" test/protocol/tomcat/DateProbe.java
for tz in UTC America/New_York Asia/Kolkata; do
  TZ=$tz java -cp "$cp:$out" DateProbe < test/protocol/tomcat/http-dates.txt > "$out/$(echo $tz | tr / _).tsv"
done
cmp "$out/UTC.tsv" "$out/America_New_York.tsv"
cmp "$out/UTC.tsv" "$out/Asia_Kolkata.tsv"
cp "$out/UTC.tsv" test/protocol/tomcat/http-dates.tsv
