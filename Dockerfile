# syntax=docker/dockerfile:1
# The baroque service: a release build in a Rust image, run from a small Debian image as a
# non-root user, with the puzzle store on the /data volume.
#
#   docker build -t baroque .
#   docker run -p 8080:8080 -v baroque-data:/data -e BAROQUE_WRITE_TOKEN=... baroque

# Base images pinned to versions (the toolchain this repository is built and tested with).
FROM rust:1.95.0-bookworm AS builder
WORKDIR /src
COPY . .
# Cache mounts keep the registry and the build between builds; the binary leaves the cache.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked \
    && cp target/release/baroque /usr/local/bin/baroque \
    && strip /usr/local/bin/baroque

FROM debian:12.12-slim
# CA certificates for `sslrootcert=system` (TLS to a managed PostgreSQL whose CA the system trusts),
# unpinned on purpose: the trust store should be the release's current one.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/*
RUN groupadd --system --gid 10001 baroque \
    && useradd --system --uid 10001 --gid 10001 --home-dir /data --shell /usr/sbin/nologin baroque \
    && mkdir /data \
    && chown 10001:10001 /data
COPY --from=builder /usr/local/bin/baroque /usr/local/bin/baroque
# The document fixtures that seed the puzzle store are compiled into the binary.
ENV BAROQUE_ADDR=0.0.0.0:8080 \
    BAROQUE_DB=/data/baroque.db
VOLUME ["/data"]
WORKDIR /data
USER 10001:10001
EXPOSE 8080
# `baroque health` GETs /health on BAROQUE_ADDR (0.0.0.0 means this machine): no curl needed.
HEALTHCHECK --interval=30s --timeout=5s --start-period=5s --retries=3 CMD ["baroque", "health"]
ENTRYPOINT ["baroque"]
CMD ["serve"]
