# syntax=docker/dockerfile:1
#
# hotrank as a container image: the service's layered jar, extracted with Spring Boot's tools
# jarmode so that the dependencies (which rarely change) and the application (which changes on
# every commit) are separate image layers.
#
#   docker build -t hotrank .
#   docker run -p 8080:8080 hotrank
#
# ContainerRecipeProcessTest reads this file: it runs the extract step (the RUN line with
# -Djarmode=tools) on the jar the build made and starts the service from the extracted layout with
# the ENTRYPOINT's command line, and runs the HEALTHCHECK command against it. Keep each of those on
# one line. docs/container.md says what was verified and what was not.

# --- Build: the Maven reactor on a JDK ---------------------------------------------------------
FROM eclipse-temurin:25-jdk AS build
WORKDIR /src
# The wrapper, the poms and the dependencies first: this layer is rebuilt only when a pom changes.
COPY mvnw ./
COPY .mvn/ .mvn/
COPY pom.xml ./
COPY hotrank-core/pom.xml hotrank-core/
COPY hotrank-server/pom.xml hotrank-server/
COPY hotrank-bench/pom.xml hotrank-bench/
RUN --mount=type=cache,target=/root/.m2 ./mvnw -B -q -pl hotrank-server -am dependency:go-offline
COPY hotrank-core/src/ hotrank-core/src/
COPY hotrank-server/src/ hotrank-server/src/
RUN --mount=type=cache,target=/root/.m2 ./mvnw -B -pl hotrank-server -am -DskipTests package \
 && cp hotrank-server/target/hotrank-server-*-exec.jar /hotrank.jar

# --- Extract: one directory per layer ----------------------------------------------------------
FROM eclipse-temurin:25-jdk AS extract
WORKDIR /layers
COPY --from=build /hotrank.jar hotrank.jar
RUN java -Djarmode=tools -jar hotrank.jar extract --layers --launcher --destination extracted

# --- Runtime: a JRE, a user without privileges -------------------------------------------------
# Ubuntu-based (glibc): the embedded Redis binary the default starts needs glibc, so no Alpine.
FROM eclipse-temurin:25-jre
# A maintained redis-server on PATH, which the embedded default prefers to the outdated Redis 6.2
# bundled in its jar (docs/security.md).
RUN apt-get update \
 && apt-get install -y --no-install-recommends redis-server \
 && rm -rf /var/lib/apt/lists/*
RUN groupadd --system hotrank \
 && useradd --system --gid hotrank --home-dir /app --no-create-home hotrank \
 && mkdir -p /app/data \
 && chown hotrank:hotrank /app/data
WORKDIR /app
# Least to most often changed, so that a new build of the application reuses the layers below it.
COPY --from=extract /layers/extracted/dependencies/ ./
COPY --from=extract /layers/extracted/spring-boot-loader/ ./
COPY --from=extract /layers/extracted/snapshot-dependencies/ ./
COPY --from=extract /layers/extracted/application/ ./
USER hotrank
# The embedded default's H2 database and generated admin token (hotrank.data-dir is ./data).
VOLUME /app/data
ENV SERVER_PORT=8080
EXPOSE 8080
# The image has bash but neither curl nor wget: the check speaks HTTP/1.1 over bash's /dev/tcp
# and passes only on a 200 status line (readiness answers 503 while boards are not preloaded).
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${SERVER_PORT:-8080} && printf 'GET /actuator/health/readiness HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' >&3 && read -r -t 4 status <&3 && [[ $status == 'HTTP/1.1 200'* ]]"]
# Heap as a share of the container's memory limit, not of the host's; an OutOfMemoryError ends
# the process so that the orchestrator restarts it instead of leaving it half-working.
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=70", "-XX:+ExitOnOutOfMemoryError", "org.springframework.boot.loader.launch.JarLauncher"]
