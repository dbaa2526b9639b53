/** 水表写水价、写告警值、读阀门状态的中文文案。 */
export const waterWritesZh = {
  "waterWrite.price": "写水价",
  "waterWrite.alarm": "写告警值",
  "waterWrite.valve": "读阀门状态",
  "waterWrite.confirm.price": "按账户的收费方案把水价表(3 档价格、2 个阶梯用量)写入所选的 {count} 块水表?",
  "waterWrite.confirm.alarm": "按账户的告警方案把告警金额1、2写入所选的 {count} 块水表?",
  "waterWrite.confirm.valve":
    "立即读取所选的 {count} 块水表的阀门状态?结果到达后显示在通断状态列和命令记录中。",
} as const;
