"""SigV4 signatures made by botocore, the reference our signer (Sources/SpotterServer/Media/SigV4.swift) is tested
against byte for byte: Tests/SpotterServerTests/Media/sigv4-botocore.json holds
  - "presigned": URLs from `generate_presigned_url` (query auth, what clients upload to and download from),
  - "headers": the Authorization, X-Amz-Date and X-Amz-Content-SHA256 headers botocore's client signs a
    PutObject, GetObject, HeadObject or DeleteObject with (what the S3 blob store's own requests carry),
    captured just before sending.

Regenerate with a Python that has botocore (the tests don't need it; they read the file):
    .venv/bin/pip install "botocore>=1.34,<2"
    .venv/bin/python scripts/sigv4-vectors.py > Tests/SpotterServerTests/Media/sigv4-botocore.json
The clock is frozen, so the output is the same on every run (made with botocore 1.44.8).
"""

import datetime
import hashlib
import json
import sys
from unittest import mock

import botocore.auth
import botocore.session
from botocore.config import Config

FROZEN = datetime.datetime(2026, 11, 25, 18, 30, 5)
ACCESS_KEY = "AKIDSPOTTEREXAMPLE"
SECRET_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"

KEYS = [
    "media/01a213d5-c180-74e5-9f07-a573fb288b08/original",
    "photo with spaces.jpg",
    "unicode/çava-ünïcödé-日本語.png",
    "plus+sign/and=equals&amp.jpg",
    "nested/deeper/still/file.webp",
    "tilde~under_score-dash.dot",
    "quotes'and\"percent%20.jpg",
    "semi;colon,comma:colon@at!bang$dollar*star(paren).heic",
    "a",
    "UPPER/Case/Key.JPG",
    "emoji/🏃‍♀️ run.jpg",
    "percent%2Fencoded/slash",
    "double//slash/and trailing/",
    "media/0193/large-1600.webp?not=a&query#frag",
]
ENDPOINTS = [
    ("http://127.0.0.1:8333", "path", "us-east-1"),
    ("https://s3.eu-central-1.amazonaws.com", "virtual", "eu-central-1"),
    ("https://minio.example.org:9000", "path", "auto"),
    ("http://localhost:9000", "virtual", "us-west-2"),
    ("https://storage.example.com", "path", "ap-southeast-2"),
]
PRESIGNED = []
for endpoint, style, region in ENDPOINTS:
    for index, key in enumerate(KEYS):
        for method, content_type in [("GET", None), ("PUT", None if index % 2 else "image/jpeg"), ("PUT", "image/png")]:
            expires = [60, 900, 3600, 604800, 1][index % 5]
            PRESIGNED.append(dict(endpoint=endpoint, addressing=style, region=region, bucket="spotter-media",
                                  key=key, method=method, content_type=content_type, expires=expires))

BODIES = ["", "hello", "x" * 1000, "ünïcödé bytes\n", "\u0000\u00ff binary-ish \u0001"]
HEADER_CASES = []
for endpoint, style, region in ENDPOINTS:
    for index, key in enumerate(KEYS[:10]):
        for method in ["PUT", "GET", "HEAD", "DELETE"]:
            case = dict(endpoint=endpoint, addressing=style, region=region, bucket="spotter-media", key=key,
                        method=method, content_type=None, body="")
            if method == "PUT":
                case["content_type"] = ["image/jpeg", "image/png", "application/octet-stream",
                                        "text/plain; charset=utf-8", "image/webp"][index % 5]
                case["body"] = BODIES[index % len(BODIES)]
            HEADER_CASES.append(case)


def client(case, **s3):
    return botocore.session.get_session().create_client(
        "s3", region_name=case["region"], endpoint_url=case["endpoint"],
        aws_access_key_id=ACCESS_KEY, aws_secret_access_key=SECRET_KEY,
        config=Config(signature_version="s3v4", s3={"addressing_style": case["addressing"], **s3},
                      request_checksum_calculation="when_required", response_checksum_validation="when_required",
                      retries={"max_attempts": 0}))


class Captured(Exception):
    def __init__(self, request):
        self.request = request


def capture(request, **kwargs):
    raise Captured(request)


def text(value):
    return value.decode() if isinstance(value, bytes) else value


presigned, headers = [], []
with mock.patch.object(botocore.auth, "get_current_datetime", return_value=FROZEN):
    for case in PRESIGNED:
        params = {"Bucket": case["bucket"], "Key": case["key"]}
        if case["content_type"]:
            params["ContentType"] = case["content_type"]
        operation = "get_object" if case["method"] == "GET" else "put_object"
        url = client(case).generate_presigned_url(operation, Params=params, ExpiresIn=case["expires"])
        presigned.append(dict(case, date=FROZEN.strftime("%Y%m%dT%H%M%SZ"), url=url))
    for case in HEADER_CASES:
        # Payload signing on, as our store always signs the payload (botocore skips it on https by default).
        s3 = client(case, payload_signing_enabled=True)
        s3.meta.events.register("before-send.s3", capture)
        params = {"Bucket": case["bucket"], "Key": case["key"]}
        operation = {"PUT": "put_object", "GET": "get_object", "HEAD": "head_object", "DELETE": "delete_object"}
        if case["method"] == "PUT":
            params.update(Body=case["body"].encode(), ContentType=case["content_type"])
        try:
            getattr(s3, operation[case["method"]])(**params)
            raise SystemExit("botocore sent a request: the capture did not run")
        except Captured as sent:
            request = sent.request
        assert request.method == case["method"]
        signed = {name: text(request.headers[name]) for name in ["Authorization", "X-Amz-Date", "X-Amz-Content-SHA256"]}
        assert signed["X-Amz-Content-SHA256"] == hashlib.sha256(case["body"].encode()).hexdigest()
        headers.append(dict(case, date=FROZEN.strftime("%Y%m%dT%H%M%SZ"), url=request.url,
                            authorization=signed["Authorization"]))
json.dump({"presigned": presigned, "headers": headers}, sys.stdout, indent=1, ensure_ascii=False)
sys.stdout.write("\n")
