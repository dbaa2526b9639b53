/** Strings of the 对象存储 and 附件管理 screens. */
export const storageZh = {
  "menu.oss": "对象存储",
  "menu.attach": "附件管理",
  "oss.enable": "启用",
  "oss.isEnabled": "已启用",
  "oss.status": "状态",
  "oss.notEnabled": "未启用",
  "oss.enabled": "已启用该存储配置, 新上传的文件将存到这里",
  "oss.localHint": "本地磁盘无需地址和密钥: 文件存放在服务器的数据目录下",
  "attach.upload": "上传附件",
  "attach.uploaded": "已上传 {name}",
  "attach.download": "下载",
  "attach.sizeLimit": "附件大小不能超过 10MB",
};
