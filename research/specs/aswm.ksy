meta:
  id: aswm
  endian: le

