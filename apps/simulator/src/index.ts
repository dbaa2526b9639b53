/**
 * @meterline/simulator — a simulated fleet of DL/T 645 electricity and CJ/T 188 water meters behind
 * simulated DTUs (TCP) or on MQTT, with real state, load profiles and fault injection.
 */
export { calendar, ManualClock, type SimClock, scaledClock } from "./clock.ts";
export {
  type CarrierSettings,
  type ConcentratorOptions,
  type ConcentratorStats,
  DEFAULT_CARRIER,
  SimulatedConcentrator,
} from "./concentrator.ts";
export {
  checkConditions,
  type MeterConditions,
  OVER_POWER_W,
  parseConditionArg,
} from "./conditions.ts";
export { SimulatedDialInMeter } from "./dial-in-meter.ts";
export { answerDlt698 } from "./dlt698-protocol.ts";
export { SimulatedDtu } from "./dtu.ts";
export {
  DEFAULT_METER_PRICES,
  type ElectricConfig,
  ElectricMeter,
  type MeterAnomaly,
  type Operation,
  REGISTER_MODULUS,
} from "./electric-meter.ts";
export { answerElectric } from "./electric-protocol.ts";
export { checkRates, FAULTS, type Fault, FaultPlan, type FaultRates, isFault } from "./faults.ts";
export { type FleetHandle, type FleetOptions, startFleet } from "./fleet.ts";
export type { FleetStats } from "./fleet-stats.ts";
export { type HistoryOptions, registerHistory, startingSteps } from "./history.ts";
export { type BusMeter, MeterBus, type ModbusBusMeter, type SimMeter } from "./meter-bus.ts";
export { ModbusMeter, type ModbusMeterConfig, rtuRequestLength, simulatorCatalogue } from "./modbus-meter.ts";
export { type ModbusTcpServer, type ModbusTcpUnit, startModbusTcpServer } from "./modbus-tcp-server.ts";
export { type MqttConnect, SimulatedMqttMeter } from "./mqtt-meter.ts";
export {
  CARRIER_PORT,
  CONCENTRATOR_AREA,
  concentratorCode,
  type FleetPlan,
  fleetCollectors,
  fleetDirectory,
  modbusMeterId,
  type PlannedMeter,
  type PlanOptions,
  planFleet,
  plannedSecret,
} from "./plan.ts";
export { accumulate, newAccumulator, type Profile, rateAt, STEP, weekday } from "./profile.ts";
export { createRandom, hashUnit, type Random } from "./random.ts";
export {
  BAND_NAMES,
  type Band,
  bandAt,
  checkSlots,
  DEFAULT_SLOTS,
  nextSlotStart,
  type TariffSlot,
} from "./tariff.ts";
export { answerWater, type WaterConfig, WaterMeter } from "./water-meter.ts";
