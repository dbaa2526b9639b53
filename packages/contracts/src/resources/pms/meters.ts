import { defineResource, type FieldDef } from "../../resource/types.ts";
import { meterAddress, meterByEnergy, registryBase, remarkField } from "./base.ts";

/** What electric and water meters share: state from the business dictionaries, links, schemes. */
const meterCommon = {
  meterName: { type: "string", maxLength: 64, search: "like" },
  runStatus: { type: "int", required: true, dictBiz: "RUN_STATUS", default: 1, search: "equal" },
  // Account, switch and online state change through operations and readings, never through the form.
  accountStatus: { type: "int", dictBiz: "ACCOUNT_STATUS", default: 0, form: false, search: "equal" },
  switchStatus: { type: "int", dictBiz: "SWITCH_STATUS", default: 0, form: false, search: "equal" },
  onlineStatus: { type: "int", dictBiz: "ONLINE_STATUS", default: 0, form: false, search: "equal" },
  collectorId: { type: "id", search: "equal", ref: { resource: "collector", label: "collectorName" } },
  channel: { type: "int", min: 0, max: 255, default: 1 },
  chargingSchemeId: { type: "id", ref: { resource: "chargingScheme", label: "schemeName" } },
  alarmSchemeId: { type: "id", ref: { resource: "alarmScheme", label: "schemeName" } },
  installTime: { type: "datetime", list: false },
  remark: { type: "text", maxLength: 255, list: false, span: 24 },
} satisfies Record<string, FieldDef>;

/** Electric meters speaking DL/T 645 (spec §7 meter); the address is 12 BCD digits. */
export const meter = defineResource({
  name: "meter",
  table: "pms_meter",
  ...registryBase,
  path: "meter",
  listVerb: "page",
  extraVerbs: ["matching-ids"],
  // A role's data-scope rules narrow the meters it lists, searches and targets in a batch.
  dataScope: true,
  writeVerbs: ["submit", "save"],
  fields: {
    productCode: meterAddress(12),
    protocol: {
      type: "string",
      required: true,
      maxLength: 16,
      dict: "meter_protocol",
      default: "dlt645_2007",
    },
    meterType: { type: "int", required: true, dictBiz: "METER_TYPE", default: 1, search: "equal" },
    controlStatus: { type: "int", required: true, dictBiz: "CONTROL_STATUS", default: 0 },
    ctRatio: { type: "int", required: true, min: 1, max: 10000, default: 1, list: false },
    ...meterCommon,
    // Relay commands (0x1C) carry the meter's password and an operator code (DL/T 645 §1.7).
    relayPassword: {
      type: "string",
      maxLength: 8,
      list: false,
      encrypted: true,
      pattern: { regex: "^[0-9A-Fa-f]{8}$", message: "hex8" },
    },
    operatorCode: {
      type: "string",
      maxLength: 8,
      list: false,
      pattern: { regex: "^[0-9A-Fa-f]{8}$", message: "hex8" },
    },
    // Modbus meters (issue 38): the model of the gateway's catalogue whose register map reads the
    // meter, and its slave address on the DTU's bus (Modbus-RTU) or its unit id behind a Modbus TCP
    // endpoint (Modbus TCP). Required when the protocol is modbus_rtu or modbus_tcp.
    modbusModel: { type: "string", maxLength: 32, list: false, dict: "modbus_model" },
    modbusSlave: { type: "int", min: 1, max: 247, list: false },
  },
  sort: [{ field: "productCode" }],
});

/** Water meters speaking CJ/T 188 (spec §7 water); the address is 14 digits. */
export const water = defineResource({
  name: "water",
  table: "pms_water",
  ...registryBase,
  path: "water",
  listVerb: "page",
  extraVerbs: ["matching-ids"],
  // A role's data-scope rules narrow the meters it lists, searches and targets in a batch.
  dataScope: true,
  fields: {
    productCode: meterAddress(14),
    protocol: {
      type: "string",
      required: true,
      maxLength: 16,
      dict: "meter_protocol",
      default: "cjt188_2004",
    },
    // Vendors disagree on the identifier's byte order (metering-domain §2.4): a per-model setting.
    diOrder: {
      type: "string",
      required: true,
      maxLength: 16,
      dict: "di_order",
      default: "big-endian",
      list: false,
    },
    ...meterCommon,
  },
  sort: [{ field: "productCode" }],
});

/** DTUs, concentrators and MQTT gateways through which meters are reached (spec §7 collector). */
export const collector = defineResource({
  name: "collector",
  table: "pms_collector",
  ...registryBase,
  path: "collector",
  listVerb: "page",
  extraVerbs: ["select", "matching-ids"],
  removeVerb: "delete",
  fields: {
    collectorName: { type: "string", required: true, maxLength: 64, search: "like" },
    // The id a DTU sends in its registration packet (or the MQTT client id); unique across tenants.
    collectorCode: { type: "string", required: true, maxLength: 32, search: "like", unique: true },
    areaId: { type: "id", search: "equal", ref: { resource: "area", label: "areaName" } },
    collectorType: { type: "int", required: true, dict: "collector_type", default: 1, search: "equal" },
    transport: { type: "string", required: true, maxLength: 8, dict: "transport", default: "tcp" },
    onlineStatus: { type: "int", dictBiz: "ONLINE_STATUS", default: 0, form: false, search: "equal" },
    simNo: { type: "string", maxLength: 20, list: false },
    heartbeatSeconds: { type: "int", required: true, min: 10, max: 3600, default: 60, list: false },
    // What a DTU proves itself with: its registration packet carries it after the code
    // (REG:<code>,<secret>). A TCP collector without one is refused by the gateway.
    registrationSecret: {
      type: "string",
      maxLength: 64,
      list: false,
      encrypted: true,
      pattern: { regex: "^[A-Za-z0-9._~-]{16,64}$", message: "dtuSecret" },
    },
    // Source networks the DTU may dial from (CIDR or addresses, comma-separated); empty = any.
    allowedNetworks: {
      type: "string",
      maxLength: 500,
      list: false,
      pattern: { regex: "^[0-9A-Fa-f:./,\\s]*$", message: "networks" },
    },
    // A Modbus TCP endpoint (transport "modbus"): a meter with its own Ethernet port, or a Modbus
    // TCP gateway in front of several meters. The gateway connects out to host:port; required then.
    modbusHost: { type: "string", maxLength: 253, list: false },
    modbusPort: { type: "int", min: 1, max: 65535, list: false },
    lastOnlineTime: { type: "datetime", form: false },
    remark: remarkField,
  },
  sort: [{ field: "collectorCode" }],
});

/** A meter's register values at installation, the base of its first usage (spec §7 meterorigvalue). */
export const meterOrigValue = defineResource({
  name: "meterOrigValue",
  table: "pms_meter_orig_value",
  ...registryBase,
  path: "meterorigvalue",
  listVerb: "list",
  fields: {
    energyType: { type: "int", required: true, dict: "energy_type", search: "equal" },
    meterId: { type: "id", required: true, search: "equal", unique: ["energyType"], refBy: meterByEnergy },
    totalValue: { type: "decimal", required: true, scale: 2, min: 0 },
    tipValue: { type: "decimal", scale: 2, min: 0, list: false },
    peakValue: { type: "decimal", scale: 2, min: 0, list: false },
    peaceValue: { type: "decimal", scale: 2, min: 0, list: false },
    lowValue: { type: "decimal", scale: 2, min: 0, list: false },
    readTime: { type: "datetime", required: true },
    remark: remarkField,
  },
});
