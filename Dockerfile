# The Cairn API and worker image. The same image runs both:
#   api:    gunicorn (default command)
#   worker: cairn worker
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1

RUN useradd --create-home --uid 10001 cairn
WORKDIR /app

COPY pyproject.toml README.md ./
COPY domain ./domain
COPY service ./service
COPY workers ./workers
COPY bots ./bots
COPY clients/python ./clients/python
COPY api_spec.yaml ./
# The client package beside the service: `cairn bot` plays through it (and `--strength` through bots/).
RUN pip install . ./clients/python && mkdir -p /app/var && chown cairn:cairn /app/var

USER cairn
EXPOSE 8000
# Threaded workers: a live stream (server-sent events) holds its thread, not a whole process; 256 threads
# leave 32 per process for moves and reads beside the 224 streams it follows at most (STREAM_MAX_OPEN).
# service.gunicorn_config: the access log to stdout, with tokens redacted. SIGTERM (docker stop) exits 0;
# a crash exits non-zero, which is what docker-compose.yml's restart policy acts on.
CMD ["gunicorn", "-c", "python:service.gunicorn_config", "--bind", "0.0.0.0:8000", "--workers", "2", \
     "--worker-class", "gthread", "--threads", "256", "service.app:create_app()"]
