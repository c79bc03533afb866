# Sourced by the bench scripts: the JDK to run with (Temurin 25 where this machine kind has it,
# else JAVA_HOME, else java on the PATH) as $JAVA, and JAVA_HOME exported for Maven.
if [[ -d /usr/lib/jvm/temurin-25-jdk-amd64 ]]; then
  export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
fi
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
