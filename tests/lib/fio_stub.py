"""fio_stub: just enough of fio's client/server protocol to answer a PROBE, for the fake fio servers of the
integration tests (hosts_check: a server of another fio version; hosts_silent: one that goes silent after
its PROBE reply). Import it with PYTHONPATH=$BENCH_SRC/tests/lib.

fio 3.33 server.h: a command header is little endian u16 version, u16 opcode, u32 flags, u64 tag,
u32 pdu_len, u16 cmd_crc16 (CRC-16/ARC over the first 20 bytes), u16 pdu_crc16; PROBE = 10; the PROBE reply
payload is 112 bytes."""
import socket
import struct

PROBE = 10


def crc16(data):
    crc = 0
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
    return crc


def recv_all(c, n):
    buf = b''
    while len(buf) < n:
        k = c.recv(n - len(buf))
        if not k:
            raise EOFError
        buf += k
    return buf


def read_command(c, check_crc=False):
    """Reads one command and its payload; returns (version, opcode, tag)."""
    hdr = recv_all(c, 24)
    ver, op, flags, tag, plen, ccrc, pcrc = struct.unpack('<HHIQIHH', hdr)
    if check_crc:
        assert crc16(hdr[:20]) == ccrc
    recv_all(c, plen)
    return ver, op, tag


def send_probe_reply(c, ver, tag, hostname, version):
    """Answers a PROBE as host `hostname` (bytes) running fio `version` (str, "fio-3.99")."""
    pdu = struct.pack('<64sB32sBBBIQ', hostname, 0, version.encode(), 1, 1, 8, 2, 0)
    assert len(pdu) == 112, len(pdu)
    h = struct.pack('<HHIQI', ver, PROBE, 0, tag, len(pdu))
    c.sendall(h + struct.pack('<HH', crc16(h), crc16(pdu)) + pdu)


def listen(addr, port, backlog):
    """A listening socket on addr:port; prints "listening" once it is (the tests wait for that line)."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((addr, port))
    s.listen(backlog)
    print("listening", flush=True)
    return s
