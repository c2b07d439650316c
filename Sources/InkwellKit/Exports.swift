// Front ends import InkwellKit alone: the modules whose types they name (in options they parse and
// results they print) come with it.
@_exported import InkCore
@_exported import InkExport
@_exported import InkFont
@_exported import InkGeometry
@_exported import InkIndex
@_exported import InkInterchange
@_exported import InkObsidian
@_exported import InkPDF
@_exported import InkRecognize
@_exported import InkRender
@_exported import InkSamples
@_exported import InkSession
@_exported import InkStore
@_exported import InkText
