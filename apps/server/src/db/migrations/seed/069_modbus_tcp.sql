-- Modbus TCP meters reached directly (issue 38): the endpoint is a collector of transport "modbus"
-- with its host and port (a meter with its own Ethernet port, or a Modbus TCP gateway in front of
-- several units); the gateway connects out to it. Its meters speak Modbus TCP (MBAP), each with a
-- catalogue model and its unit id.
insert into sys_dict (id, parent_id, code, dict_key, dict_value, dict_value_en, sort, is_sealed) values
  (2700, 1170, 'transport', 'modbus', 'Modbus TCP 直连', 'Modbus TCP (direct)', 3, 0),
  (2701, 1140, 'meter_protocol', 'modbus_tcp', 'Modbus TCP', 'Modbus TCP', 6, 0);
