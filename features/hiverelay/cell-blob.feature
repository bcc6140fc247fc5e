@hiverelay
Feature: HiveRelay BCC v1, section 3: CellBlobV1
  CellBlobV1 is contextual: its decoder is selected by an already
  authenticated size class, never by a byte of the blob. Its exact total
  lengths are class 1 = 4096, class 2 = 16384, class 3 = 65536, class 4 =
  262144 and class 5 = 1048576 bytes: version 1, a 12-byte nonce and exactly
  classLength - 13 sealed bytes. "A CellBlobV1 of class c" is the value of
  positive/cell-blob-v1-class-c.bin (labels cell-blob/class-c/...).

  Rule: HR-BLOB-01 A CellBlobV1 decoder is selected by an already authenticated size class 1..5

    Scenario Outline: decoding with class <class>, which no blob has
      Given a CellBlobV1 of class 1
      When it is decoded as CellBlobV1 of class <class>
      Then it is rejected by rule HR-BLOB-01 with code "BAD_ENCODING"

      Examples:
        | class |
        | 0     |
        | 6     |
        | 255   |

    Scenario: decoding without a class
      Given a CellBlobV1 of class 1
      When it is decoded as CellBlobV1 without a class
      Then it is rejected by rule HR-BLOB-01 with code "BAD_ENCODING"

    Scenario Outline: decoding with class <class>
      Given a CellBlobV1 of class <class>
      When it is decoded as CellBlobV1 of class <class>
      Then the re-encoding equals the input

      Examples:
        | class |
        | 1     |
        | 5     |

  Rule: HR-BLOB-02 CellBlobV1 total lengths are exactly 4096, 16384, 65536, 262144 and 1048576 bytes for classes 1 to 5

    Scenario Outline: class <class> is exactly <length> bytes
      Given a CellBlobV1 of class <class>
      When it is decoded as CellBlobV1 of class <class>
      Then the re-encoding equals the input
      And the input is <length> bytes long

      Examples:
        | class | length  |
        | 1     | 4096    |
        | 2     | 16384   |
        | 3     | 65536   |
        | 4     | 262144  |
        | 5     | 1048576 |

    Scenario Outline: class <class> one byte short
      Given a CellBlobV1 of class <class>
      And the last byte of the input is removed
      When it is decoded as CellBlobV1 of class <class>
      Then it is rejected by rule HR-BLOB-06 with code "BAD_ENCODING"

      Examples:
        | class |
        | 1     |
        | 2     |
        | 3     |
        | 4     |
        | 5     |

    Scenario Outline: class <class> one byte long
      Given a CellBlobV1 of class <class>
      And 00 is appended to the input
      When it is decoded as CellBlobV1 of class <class>
      Then it is rejected by rule HR-BLOB-07 with code "BAD_ENCODING"

      Examples:
        | class |
        | 1     |
        | 2     |
        | 3     |
        | 4     |
        | 5     |

  Rule: HR-BLOB-03 CellBlobV1 is formatVersion 1, a 12-byte nonce and exactly classLength - 13 sealed bytes

    Scenario: the class-1 positive vector, field by field
      Given the concatenation of:
        | field         | bytes                                    |
        | formatVersion | 01                                       |
        | nonce         | 12 bytes of label "cell-blob/class-1/nonce"   |
        | sealed        | 4083 bytes of label "cell-blob/class-1/sealed" |
      When it is decoded as CellBlobV1 of class 1
      Then the re-encoding equals the vector "positive/cell-blob-v1-class-1.bin"

    Scenario Outline: the committed class-<class> vector decodes and re-encodes byte for byte
      Given the positive vector "positive/cell-blob-v1-class-<class>.bin"
      When it is decoded as CellBlobV1 of class <class>
      Then the re-encoding equals the input

      Examples:
        | class |
        | 1     |
        | 2     |
        | 3     |
        | 4     |
        | 5     |

    Scenario: the sealed bytes are opaque: 4083 bytes ff
      Given the concatenation of:
        | field         | bytes             |
        | formatVersion | 01                |
        | nonce         | 12 zero bytes     |
        | sealed        | 4083 times "\xff" |
      When it is decoded as CellBlobV1 of class 1
      Then the re-encoding equals the input

  Rule: HR-BLOB-04 No class discriminator is serialized in a CellBlobV1

    Scenario Outline: whatever byte follows the version, a 4096-byte blob is class 1: <byte>
      Given a CellBlobV1 of class 1
      And byte 1 of the input is set to <byte>
      When it is decoded as CellBlobV1 of class 1
      Then the re-encoding equals the input

      Examples:
        | byte |
        | 00   |
        | 01   |
        | 02   |
        | 05   |
        | ff   |

    Scenario: the same 16384 bytes are a class-2 blob and nothing else: the class comes from the context
      Given the positive vector "positive/cell-blob-v1-class-2.bin"
      When it is decoded as CellBlobV1 of class 1
      Then it is rejected by rule HR-BLOB-05 with code "BAD_ENCODING"

  Rule: HR-BLOB-05 Decoding a CellBlobV1 with the wrong class fails closed

    Scenario Outline: a class-<class> blob decoded as class <other>
      Given the positive vector "positive/cell-blob-v1-class-<class>.bin"
      When it is decoded as CellBlobV1 of class <other>
      Then it is rejected by rule HR-BLOB-05 with code "BAD_ENCODING"

      Examples:
        | class | other |
        | 1     | 2     |
        | 1     | 5     |
        | 2     | 1     |
        | 3     | 4     |
        | 4     | 3     |
        | 5     | 1     |

  Rule: HR-BLOB-06 A CellBlobV1 shorter than its class length fails closed

    Scenario: the negative vector cell-blob-v1-class-1-truncated
      Given the negative vector "negative/cell-blob-v1-class-1-truncated.bin"
      When it is decoded as CellBlobV1 of class 1
      Then it is rejected by rule HR-BLOB-06 with code "BAD_ENCODING"

    Scenario Outline: a class-1 blob of <n> bytes
      Given a CellBlobV1 of class 1
      And the input is cut to <n> bytes
      When it is decoded as CellBlobV1 of class 1
      Then it is rejected by rule HR-BLOB-06 with code "BAD_ENCODING"

      Examples:
        | n    |
        | 0    |
        | 1    |
        | 13   |
        | 4095 |

    Scenario: a class-5 blob of 262143 bytes is short, not of another class
      Given a CellBlobV1 of class 5
      And the input is cut to 262143 bytes
      When it is decoded as CellBlobV1 of class 5
      Then it is rejected by rule HR-BLOB-06 with code "BAD_ENCODING"

  Rule: HR-BLOB-07 A CellBlobV1 longer than its class length fails closed

    Scenario: a class-1 blob of 4097 bytes
      Given a CellBlobV1 of class 1
      And ff is appended to the input
      When it is decoded as CellBlobV1 of class 1
      Then it is rejected by rule HR-BLOB-07 with code "BAD_ENCODING"

    Scenario: a class-1 blob followed by a second blob is long, not of another class
      Given a CellBlobV1 of class 1
      And the vector "positive/cell-blob-v1-class-1.bin" is appended to the input
      When it is decoded as CellBlobV1 of class 1
      Then it is rejected by rule HR-BLOB-07 with code "BAD_ENCODING"

  Rule: HR-BLOB-08 Nonce uniqueness and AEAD verification belong to the composing encryption profile, not to the codec

    Scenario: a zero nonce and sealed bytes that are no AEAD output decode: the codec fixes only the envelope
      Given the concatenation of:
        | field         | bytes          |
        | formatVersion | 01             |
        | nonce         | 12 zero bytes  |
        | sealed        | 4083 zero bytes |
      When it is decoded as CellBlobV1 of class 1
      Then the re-encoding equals the input

    Scenario: a class-2 blob reusing the class-1 vector's nonce decodes: nonce uniqueness is not the codec's to check
      Given a CellBlobV1 of class 2
      And its nonce is 12 bytes of label "cell-blob/class-1/nonce"
      When it is decoded as CellBlobV1 of class 2
      Then the re-encoding equals the input
      And bytes 1 to 12 of the re-encoding are 12 bytes of label "cell-blob/class-1/nonce"
