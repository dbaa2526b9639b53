-- Modbus DIN-rail meters (issue 38): Modbus-RTU behind DTUs, each of a model of the gateway's
-- catalogue (packages/protocols/src/modbus/models, one file per model: the keys are the file names).
-- The server checks a meter's model against the catalogue itself; this dictionary gives the form's
-- select its labels, and a test keeps the two in step.
insert into sys_dict (id, parent_id, code, dict_key, dict_value, dict_value_en, sort, is_sealed) values
  (2650, 1140, 'meter_protocol', 'modbus_rtu', 'Modbus-RTU', 'Modbus-RTU', 5, 0),
  (2651, 0, 'modbus_model', '-1', 'Modbus 电表型号', 'Modbus meter model', 60, 0),
  (2652, 2651, 'modbus_model', 'adl200', '安科瑞 ADL200', 'Acrel ADL200', 1, 0),
  (2653, 2651, 'modbus_model', 'adl400', '安科瑞 ADL400', 'Acrel ADL400', 2, 0),
  (2654, 2651, 'modbus_model', 'ddsy1352', '安科瑞 DDSY1352 预付费', 'Acrel DDSY1352 prepaid', 3, 0),
  (2655, 2651, 'modbus_model', 'ddsu666', '正泰 DDSU666', 'Chint DDSU666', 4, 0),
  (2656, 2651, 'modbus_model', 'dtsu666', '正泰 DTSU666', 'Chint DTSU666', 5, 0),
  (2657, 2651, 'modbus_model', 'dtsu666-h', '正泰 DTSU666-H', 'Chint DTSU666-H', 6, 0),
  (2658, 2651, 'modbus_model', 'sdm120', '伊斯顿 SDM120', 'Eastron SDM120', 7, 0),
  (2659, 2651, 'modbus_model', 'sdm630', '伊斯顿 SDM630', 'Eastron SDM630', 8, 0);
