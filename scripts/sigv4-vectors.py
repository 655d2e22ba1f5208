"""Presigned S3 URLs made by botocore, the reference our SigV4 signer (Sources/SpotterServer/Media/SigV4.swift)
is tested against byte for byte: Tests/SpotterServerTests/Media/sigv4-botocore.json.

Regenerate with a Python that has botocore (the tests don't need it; they read the file):
    .venv/bin/pip install "botocore>=1.34,<2"
    .venv/bin/python scripts/sigv4-vectors.py > Tests/SpotterServerTests/Media/sigv4-botocore.json
The clock is frozen, so the output is the same on every run (made with botocore 1.44.8).
"""

import datetime
import json
import sys
from unittest import mock

import botocore.auth
import botocore.session
from botocore.config import Config

FROZEN = datetime.datetime(2026, 11, 25, 18, 30, 5)

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
]
CASES = []
for endpoint, style, region in [
    ("http://127.0.0.1:8333", "path", "us-east-1"),
    ("https://s3.eu-central-1.amazonaws.com", "virtual", "eu-central-1"),
    ("https://minio.example.org:9000", "path", "auto"),
]:
    for index, key in enumerate(KEYS):
        for method, content_type in [("GET", None), ("PUT", None if index % 2 else "image/jpeg"), ("PUT", "image/png")]:
            expires = [60, 900, 3600, 604800][index % 4]
            CASES.append(dict(endpoint=endpoint, addressing=style, region=region, bucket="spotter-media",
                              key=key, method=method, content_type=content_type, expires=expires))

session = botocore.session.get_session()
out = []
with mock.patch.object(botocore.auth, "get_current_datetime", return_value=FROZEN):
    for case in CASES:
        client = session.create_client(
            "s3", region_name=case["region"], endpoint_url=case["endpoint"],
            aws_access_key_id="AKIDSPOTTEREXAMPLE", aws_secret_access_key="wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            config=Config(signature_version="s3v4", s3={"addressing_style": case["addressing"]}))
        params = {"Bucket": case["bucket"], "Key": case["key"]}
        if case["content_type"]:
            params["ContentType"] = case["content_type"]
        operation = "get_object" if case["method"] == "GET" else "put_object"
        url = client.generate_presigned_url(operation, Params=params, ExpiresIn=case["expires"])
        out.append(dict(case, date=FROZEN.strftime("%Y%m%dT%H%M%SZ"), url=url))
json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
sys.stdout.write("\n")
