// Debian's libsecp256k1-dev (0.2.0): the Schnorr signatures of BIP-340 and the x-only keys they use.
#include <secp256k1.h>
#include <secp256k1_extrakeys.h>
#include <secp256k1_schnorrsig.h>
