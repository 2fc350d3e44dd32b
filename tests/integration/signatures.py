#!/usr/bin/env python3
"""Writes on-disk signatures from their documented layouts into an image file, for the target-safety tests.

usage: signatures.py KIND IMAGE     KIND: luks1 gpt mdraid lvm

luks1:  LUKS1 phdr (cryptsetup's "LUKS On-Disk Format Specification" 1.2.3): magic "LUKS\\xba\\xbe", version 1
        big-endian, cipher/mode/hash names, payload offset, key bytes, UUID.
gpt:    UEFI 2.x: protective MBR (type 0xEE, 0x55AA), header "EFI PART" at LBA 1 with its CRC32, 128 entries of
        128 bytes at LBA 2 with their CRC32, one Linux filesystem partition; the backup header at the last LBA.
mdraid: Linux md superblock v1.2 (include/uapi/linux/raid/md_p.h struct mdp_superblock_1) at 4 KiB: magic
        0xa92b4efc little-endian, major_version 1, super_offset 8 (sectors), with its checksum.
lvm:    LVM2 label (lib/label/label.h) at sector 1: "LABELONE", sector_xl 1, crc_xl, offset_xl 32, "LVM2 001",
        then a PV header with a UUID.
"""
import os
import struct
import sys
import uuid
import zlib


def lvm_crc(data, crc=0xF597A6CF):
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 if crc & 1 else 0)
    return crc


def luks1():
    h = bytearray(592)
    h[0:6] = b"LUKS\xba\xbe"
    struct.pack_into(">H", h, 6, 1)
    h[8:8 + 3] = b"aes"
    h[40:40 + 11] = b"xts-plain64"
    h[72:72 + 6] = b"sha256"
    struct.pack_into(">II", h, 104, 4096, 64)
    struct.pack_into(">I", h, 164, 1000)
    u = str(uuid.uuid4()).encode()
    h[168:168 + len(u)] = u
    return [(0, bytes(h))]


def gpt(size):
    sectors = size // 512
    entry = bytearray(128)
    entry[0:16] = uuid.UUID("0FC63DAF-8483-4772-8E79-3D69D8477DE4").bytes_le
    entry[16:32] = uuid.uuid4().bytes_le
    struct.pack_into("<QQ", entry, 32, 2048, 4095)
    entry[56:66] = "bench".encode("utf-16-le")
    entries = bytes(entry) + bytes(127 * 128)
    ecrc = zlib.crc32(entries)
    disk = uuid.uuid4().bytes_le

    def header(my, alt, elba):
        h = bytearray(92)
        h[0:8] = b"EFI PART"
        struct.pack_into("<IIII", h, 8, 0x00010000, 92, 0, 0)
        struct.pack_into("<QQQQ", h, 24, my, alt, 34, sectors - 34)
        h[56:72] = disk
        struct.pack_into("<QIII", h, 72, elba, 128, 128, ecrc)
        struct.pack_into("<I", h, 16, zlib.crc32(bytes(h)))
        return bytes(h)

    mbr = bytearray(512)
    struct.pack_into("<BBBBBBBBII", mbr, 446, 0, 0, 2, 0, 0xEE, 0xFF, 0xFF, 0xFF, 1, min(sectors - 1, 0xFFFFFFFF))
    mbr[510:512] = b"\x55\xaa"
    return [(0, bytes(mbr)), (512, header(1, sectors - 1, 2)), (1024, entries),
            ((sectors - 33) * 512, entries), ((sectors - 1) * 512, header(sectors - 1, 1, sectors - 33))]


def mdraid():
    max_dev = 2
    sb = bytearray(256 + 2 * max_dev)
    struct.pack_into("<IIII", sb, 0, 0xA92B4EFC, 1, 0, 0)
    sb[16:32] = uuid.uuid4().bytes
    sb[32:32 + 7] = b"bench:0"
    struct.pack_into("<QIIQII", sb, 64, 0, 1, 0, 8192, 0, 2)
    struct.pack_into("<QQQQI", sb, 128, 2048, 8192, 8, 0, 0)
    sb[168:184] = uuid.uuid4().bytes
    struct.pack_into("<QQQ", sb, 192, 0, 1, 0xFFFFFFFFFFFFFFFF)
    struct.pack_into("<I", sb, 220, max_dev)
    struct.pack_into("<HH", sb, 256, 0, 1)
    total = 0
    for i in range(0, len(sb) - len(sb) % 4, 4):
        total += struct.unpack_from("<I", sb, i)[0]
    if len(sb) % 4 == 2:
        total += struct.unpack_from("<H", sb, len(sb) - 2)[0]
    csum = ((total & 0xFFFFFFFF) + (total >> 32)) & 0xFFFFFFFF
    struct.pack_into("<I", sb, 216, csum)
    return [(4096, bytes(sb))]


def lvm():
    lab = bytearray(512)
    lab[0:8] = b"LABELONE"
    struct.pack_into("<Q", lab, 8, 1)
    struct.pack_into("<I", lab, 20, 32)
    lab[24:32] = b"LVM2 001"
    lab[32:64] = uuid.uuid4().hex.encode()
    struct.pack_into("<Q", lab, 64, 16 << 20)
    struct.pack_into("<I", lab, 16, lvm_crc(bytes(lab[20:512])))
    return [(512, bytes(lab))]


def main():
    kind, image = sys.argv[1], sys.argv[2]
    size = os.path.getsize(image)
    writes = {"luks1": luks1, "mdraid": mdraid, "lvm": lvm}.get(kind)
    parts = gpt(size) if kind == "gpt" else writes() if writes else None
    if parts is None:
        sys.exit("unknown kind " + kind)
    with open(image, "r+b") as f:
        for off, data in parts:
            f.seek(off)
            f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
