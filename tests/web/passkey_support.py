"""A software passkey for the server tests: an authenticator that really signs (P-256).

It answers the options ``/api/account/...`` hands out as a browser's
``navigator.credentials`` would, with "none" attestation: the server checks these
answers with the ``webauthn`` package exactly as it checks a real device's.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import secrets
import struct
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

UP, UV, AT = 0x01, 0x04, 0x40


def b64(data: bytes) -> str:
    """base64url without padding, as WebAuthn's JSON writes bytes."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    """The bytes of base64url text (padding optional)."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclasses.dataclass
class Passkey:
    """One credential: its id, private key, user handle and signature counter."""

    rp_id: str
    origin: str
    id: bytes = dataclasses.field(default_factory=lambda: secrets.token_bytes(32))
    key: ec.EllipticCurvePrivateKey = dataclasses.field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    user_handle: bytes = b""
    count: int = 0

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        data = {"type": kind, "challenge": challenge, "origin": origin or self.origin}
        return json.dumps(data | {"crossOrigin": False}).encode()

    def create(self, options: dict[str, Any], origin: str | None = None) -> dict[str, Any]:
        """The answer to ``navigator.credentials.create`` with these options."""
        self.user_handle = unb64(options["user"]["id"])
        numbers = self.key.public_key().public_numbers()
        cose = {
            1: 2,
            3: -7,
            -1: 1,
            -2: numbers.x.to_bytes(32, "big"),
            -3: numbers.y.to_bytes(32, "big"),
        }
        attested = bytes(16) + struct.pack(">H", len(self.id)) + self.id + cbor2.dumps(cose)
        rp_hash = hashlib.sha256(options["rp"]["id"].encode()).digest()
        auth = rp_hash + bytes([UP | UV | AT]) + struct.pack(">I", self.count) + attested
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth})
        client = self._client_data("webauthn.create", options["challenge"], origin)
        return {
            "id": b64(self.id),
            "rawId": b64(self.id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(client),
                "attestationObject": b64(attestation),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
        }

    def get(self, options: dict[str, Any], origin: str | None = None) -> dict[str, Any]:
        """The answer to ``navigator.credentials.get`` with these options (a signature)."""
        self.count += 1
        rp_hash = hashlib.sha256(options["rpId"].encode()).digest()
        auth = rp_hash + bytes([UP | UV]) + struct.pack(">I", self.count)
        client = self._client_data("webauthn.get", options["challenge"], origin)
        signature = self.key.sign(auth + hashlib.sha256(client).digest(), ec.ECDSA(hashes.SHA256()))
        return {
            "id": b64(self.id),
            "rawId": b64(self.id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(client),
                "authenticatorData": b64(auth),
                "signature": b64(signature),
                "userHandle": b64(self.user_handle),
            },
            "clientExtensionResults": {},
        }
